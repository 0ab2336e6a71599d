// Package views is eoslab's terminal user interface, built with Bubble Tea:
// the root, which routes between the screens, over a package per room.
//
// The rooms, each with New, Update, View, SetSize and a KeyMap where it
// takes keys:
//
//   - views/pane: the bordered, scrollable box every panel is drawn in;
//   - views/panels: the content of the player's and the sandbox's panels,
//     built from a frame;
//   - views/home: the lesson list;
//   - views/drill: the interview drill;
//   - views/player: the lesson player, which reports leaving, finishing,
//     answering and switching the Kafka version up with messages;
//   - views/sandbox: the free-play screen, which reports leaving with
//     sandbox.LeftMsg;
//
// on foundations any room may import: views/model (the view-model: Frame,
// Session, Op, Drill, Progress), views/theme, views/layout (where the panels
// go for a terminal size, and the canvas), views/content (what a pane
// scrolls through), views/internal/cells (text measured in cells) and
// views/internal/keyset (the key helpers the rooms share). No
// room imports another, nor the root; none imports the engine or the
// lessons (TestComponentsStayInTheirRooms): views/adapt fills the
// view-model from them, and the views are tested with a fake session.
//
// The root (App) routes between the screens (home, player, drill,
// sandbox) and holds what they share (the theme, the size, the options,
// the sessions the learner left). It lends the player, the drill and the
// sandbox the
// pane's box and the panels' drawing as function tables (app_player.go,
// app_drill.go, app_sandbox.go). The learner's progress goes through
// model.Progress: the views say where the learner is and what they
// answered, and read back where to continue.
//
// This package does no I/O of its own: main.go owns the terminal, flags and
// environment, and passes what it learned in Options.
package views
