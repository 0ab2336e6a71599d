// Package views is eoslab's terminal user interface, built with Bubble Tea.
//
// It draws plain view-model values (LessonInfo, Frame and the structs it
// holds) and drives a lesson through the small Session interface, both
// defined in model.go. It does not import engine/ or lessons/ (only
// engine/termsafe, the standard-library leaf that says which characters a
// terminal must not receive): an adapter fills these values, which keeps the views testable with a fake session and
// keeps the simulation free of any UI concern.
//
// The shape follows the bubbles and soft-serve habit: one root model (App)
// owns the application state (screen, focus, lesson position, play/pause)
// and routes messages to small components (the home list, scrollable panes,
// the help bar). Components do not import each other; the root hands them
// plain values and they report up with typed messages.
//
// Three screens: the home list (home.go), the lesson player, and the
// interview drill (drill.go, drill_screen.go), which plays a Drill as the
// player plays a Session. The learner's progress goes through the Progress
// interface (progress.go): the views say where the learner is and what
// they answered, and read back where to continue.
//
// This package does no I/O of its own: main.go owns the terminal, flags and
// environment, and passes what it learned in Options.
package views
