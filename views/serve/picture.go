package serve

import tea "github.com/charmbracelet/bubbletea"

// ViewMsg is the message that brings a seat a View of its class, the one
// the server sends for each View a seat's channel gives. With it a seat
// is drawn without SSH, as the README's pictures of a class are.
func ViewMsg(v *View) tea.Msg { return viewMsg{v} }
