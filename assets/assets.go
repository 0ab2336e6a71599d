// Package assets holds eoslab's embedded documents: the scenario language
// reference, the JSON schema of `eoslab run --json`, and the Maven project
// and log configs `eoslab kafka up` writes to run a real broker. It imports
// nothing but the standard library.
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

// KafkaPOM is the Maven project whose runtime closure is a Kafka broker's
// classpath (org.apache.kafka:kafka_2.13 plus a logging binding per line);
// `eoslab kafka up` writes it into the user's directory and runs
// maven-dependency-plugin's copy-dependencies on it.
//
//go:embed kafka/pom.xml
var KafkaPOM string

// KafkaLog4j2 and KafkaLog4j configure the broker's log (4.x and 3.x).
//
//go:embed kafka/log4j2.properties
var KafkaLog4j2 string

//go:embed kafka/log4j.properties
var KafkaLog4j string

// KafkaKnownDifferences lists what `eoslab verify` may find different
// between the simulation and a real broker, each with its source and the
// decision taken.
//
//go:embed kafka/known-differences.txt
var KafkaKnownDifferences string
