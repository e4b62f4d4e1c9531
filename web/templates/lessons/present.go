package lessons

import "strings"

// keyTable lists the keys the demos take, for the help dialog (KeysHelp):
// the keys, space-separated, and what they do. app.js acts on them.
var keyTable = [][2]string{
	{"→ PageDown", "step (at the end of a run, PageDown goes on to the next demo); while a question about the next step waits, reveal it"},
	{"Enter", "reveal the next step without answering its question (presenter view, predict mode)"},
	{"← PageUp", "step back"},
	{"Space", "play / pause"},
	{"r", "reset to step 0"},
	{"+ −", "play faster / slower"},
	{"n p", "next / previous demo"},
	{"f", "full screen"},
	{"h", "show / hide the history chart"},
	{"c", "clean view: hide the forms"},
	{"b", "blank the screen (any key brings it back)"},
	{"q", "show / hide this state's QR code, large, for phones in the room (presenter view)"},
	{"Esc", "leave a control (a text box, a slider)"},
	{"?", "this help"},
}

// splitKeys splits a keyTable entry's keys.
func splitKeys(spec string) []string { return strings.Fields(spec) }
