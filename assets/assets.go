// Package assets holds eoslab's embedded documents: the scenario language
// reference and the JSON schema of `eoslab run --json`. It imports nothing
// but the standard library.
package assets

import _ "embed"

// ScenarioLanguage is the one-page reference of the scenario language.
//
//go:embed scenario-language.md
var ScenarioLanguage string

// JSONSchema documents the output of `eoslab run --json`.
//
//go:embed json-output.md
var JSONSchema string
