package demo

import (
	"fmt"
	"strings"
)

// ParamTable writes the demo's URL keys as a Markdown table: the table in
// the demo's page docs/demos/<ID>.md is this output (TestDemoDocs keeps
// the two equal), so a default or a limit is only ever written in the
// declaration.
func (d *Demo) ParamTable() string {
	var b strings.Builder
	b.WriteString("| key | meaning | default | allowed |\n|---|---|---|---|\n")
	row := func(key, doc, def, allowed string) {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", key, doc, def, allowed)
	}
	for _, p := range d.params {
		def := "`" + p.Default + "`"
		if p.DefaultFrom != "" {
			def = "`" + p.DefaultFrom + "`"
		}
		allowed := p.Allowed()
		if p.Kind == KindChoice && p.AllowedDoc == "" {
			allowed = "`" + strings.Join(p.values(), "`, `") + "`"
		}
		row(p.Key, p.Doc, def, allowed)
	}
	if d.HasPoints() {
		row(KeyAdd, "added points `"+d.PointFormat()+"~…`", "none",
			fmt.Sprintf("≤ %d points, \\|x\\| ≤ %s, %s", MaxPoints, FmtNum(MaxCoord), d.labelDoc()))
		row(keyDel, "indices of data-set points removed `i,j,…`", "none", "distinct existing indices")
	}
	if d.Static {
		row(KeyStep, "none: the demo shows one state", "`0`", "0 only")
	} else {
		row(KeyStep, "iteration shown", "`0`", fmt.Sprintf("0–%d, or `end` (redirects to the last step)", MaxStep))
	}
	return b.String()
}

// URLTable writes the URLs the server gives the demo as a Markdown
// table, for docs/demos/<ID>.md: the routes cmd/web installs for every
// demo, from the same paths.
func (d *Demo) URLTable() string {
	var b strings.Builder
	b.WriteString("| URL | what |\n|---|---|\n")
	row := func(url, what string) { fmt.Fprintf(&b, "| `%s` | %s |\n", url, what) }
	page := d.LessonPath()
	if d.Secondary {
		page += "?" + KeyDemo + "=" + d.ID
	}
	row(page, "the lesson page with this demo")
	row(d.PresentPath(), "the presenter view: the demo alone, large")
	row(d.PlotPath("svg"), "the main plot as SVG")
	row(d.PlotPath("png"), "the main plot as PNG")
	if !d.Static {
		row(d.PlotPath("gif"), "the main plot of steps `from`–`to` as an animated GIF")
	}
	row(d.PanelPath(HistoryFigure), "the run's recorded series against the iteration")
	row(d.FigurePath(HistoryFigure, "png"), "… as PNG")
	for _, name := range d.Panels {
		row(d.PanelPath(name), "the `"+name+"` figure")
		row(d.FigurePath(name, "png"), "… as PNG")
	}
	if d.HasPoints() {
		row(d.CSVPath(), "the points as CSV (`"+d.PointFormat()+"`)")
		row("POST "+d.DataPath(), "upload a CSV of points; redirects to the demo")
	}
	return b.String()
}

func (d *Demo) labelDoc() string {
	if d.Data.Labels == RealLabels {
		return "y within ±" + FmtNum(MaxCoord)
	}
	return fmt.Sprintf("labels −1/+1 or classes 0–%d", d.Data.MaxClasses-1)
}
