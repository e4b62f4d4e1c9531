package demo

// EmbedPath is the demo alone, for an iframe on another site: NewView
// with this page builds every link and form of the view under it.
func (d *Demo) EmbedPath() string { return "/embed/" + d.ID }
