package fit
import ("testing";"context";"strings";"time";"encoding/json")
func TestZZWorstCPU(t *testing.T){
	for name, body := range worstBodies() {
		best, bestWall := time.Hour, time.Hour
		for range 5 {
			c0, w0 := cpu(), time.Now()
			req, _ := Decode(strings.NewReader(body))
			r, err := Run(context.Background(), req)
			if err != nil { t.Fatal(err) }
			json.Marshal(r)
			best, bestWall = min(best, cpu()-c0), min(bestWall, time.Since(w0))
			p := r.(*PerceptronResponse)
			_ = p
			if name == "late-cycle" { t.Logf("%s %d epochs", p.Status, p.Epochs) }
		}
		t.Logf("%s: cpu %v wall %v", name, best.Round(time.Millisecond), bestWall.Round(time.Millisecond))
	}
}
