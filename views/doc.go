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
//   - views/sandbox: the free-play screen, which reports leaving with
//     sandbox.LeftMsg;
//
// on foundations any room may import: views/model (the view-model: Frame,
// Session, Op, Drill, Progress), views/theme, views/layout (where the panels
// go for a terminal size, and the canvas), views/content (what a pane
// scrolls through) and views/internal/cells (text measured in cells). No
// room imports another, nor the root; none imports the engine or the
// lessons (TestComponentsStayInTheirRooms): views/adapt fills the
// view-model from them, and the views are tested with a fake session.
//
// The root (App) owns the application state (screen, focus, lesson
// position, play/pause), plays a lesson (app_player.go), and routes to the
// interview drill (app_drill.go) and the sandbox (app_sandbox.go), lending
// them other rooms' drawing as functions. The learner's progress goes through
// model.Progress: the views say where the learner is and what they
// answered, and read back where to continue.
//
// This package does no I/O of its own: main.go owns the terminal, flags and
// environment, and passes what it learned in Options.
package views
