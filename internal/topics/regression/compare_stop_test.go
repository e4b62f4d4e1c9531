package regression

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestLSGDCompareStoppedRunOneStep: in the compare view a run b the cap
// stops says it stopped at the step its own counter shows (issue 27 §4:
// "Run b stopped at step 1223" beside its counter's 1222).
func TestLSGDCompareStoppedRunOneStep(t *testing.T) {
	d := mustDemo(t, LSGDSpec())
	v, _ := url.ParseQuery("b.eta=1.05&eta=0.01&step=1300")
	p, probs := d.ParseCompare(v)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	c, err := d.ExecuteCompare(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	held := c.HeldText(c.B)
	counter := demotest.Counter(c.B.Panel(), "step")
	if !strings.Contains(held, "stopped at step "+counter+";") || counter != "1222" {
		t.Errorf("run b: %q beside its counter %s", held, counter)
	}
}
