package measure

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// LoadWatch follows the machine's load over a run from the kernel's own
// counters (Linux /proc; elsewhere it records what it cannot read as
// unknown): the 1-minute load average at the start, the end and its
// highest in between; CPU pressure, the share of the time some task
// waited for a CPU (PSI, Documentation/accounting/psi.rst: the "some"
// line's total is cumulative microseconds); and steal time (/proc/stat's
// eighth cpu field, proc(5)). A runner starts one, samples it now and
// then, and finishes it into result.Load; what its own samples showed
// (CPU against wall time, the reference probe) it adds itself.
type LoadWatch struct {
	proc                 string // "/proc", or a test's directory
	cpus                 int
	start                time.Time
	loadStart, loadMax   float64
	loadOK               bool
	psiStart             int64 // µs
	psiOK                bool
	stealStart, cpuStart int64 // jiffies
	statOK               bool
	lastSample           time.Time
	now                  func() time.Time // time.Now; a test's clock
}

// WatchLoad starts watching the load.
func WatchLoad() *LoadWatch { return watchLoad("/proc", runtime.NumCPU(), time.Now) }

func watchLoad(proc string, cpus int, now func() time.Time) *LoadWatch {
	w := &LoadWatch{proc: proc, cpus: cpus, start: now(), now: now}
	w.loadStart, w.loadOK = w.loadAverage()
	w.loadMax = w.loadStart
	w.psiStart, w.psiOK = w.cpuPressure()
	w.stealStart, w.cpuStart, w.statOK = w.steal()
	w.lastSample = w.start
	return w
}

// Sample reads the load average if a second has passed since the last
// reading (it changes every 5 s; a read costs microseconds).
func (w *LoadWatch) Sample() {
	if !w.loadOK || w.now().Sub(w.lastSample) < time.Second {
		return
	}
	w.lastSample = w.now()
	if l, ok := w.loadAverage(); ok {
		w.loadMax = max(w.loadMax, l)
	}
}

// Finish returns what the watch saw; the runner fills in CPUWallRatio,
// ReferenceDrift and the verdict.
func (w *LoadWatch) Finish() *result.Load {
	l := &result.Load{CPUs: w.cpus, CPUPressure: -1, Steal: -1}
	if w.loadOK {
		end, _ := w.loadAverage()
		l.LoadStart, l.LoadEnd, l.LoadMax = w.loadStart, end, max(w.loadMax, end)
	}
	wall := w.now().Sub(w.start).Microseconds()
	if psi, ok := w.cpuPressure(); ok && w.psiOK && wall > 0 {
		l.CPUPressure = min(1, float64(psi-w.psiStart)/float64(wall))
	}
	if steal, total, ok := w.steal(); ok && w.statOK && total > w.cpuStart {
		l.Steal = float64(steal-w.stealStart) / float64(total-w.cpuStart)
	}
	return l
}

// loadAverage reads the 1-minute load average.
func (w *LoadWatch) loadAverage() (float64, bool) {
	b, err := os.ReadFile(w.proc + "/loadavg")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil
}

// cpuPressure reads the cumulative microseconds some task waited for a
// CPU: "some avg10=… avg60=… avg300=… total=N".
func (w *LoadWatch) cpuPressure() (int64, bool) {
	b, err := os.ReadFile(w.proc + "/pressure/cpu")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "some ") {
			continue
		}
		for _, f := range strings.Fields(line) {
			if v, ok := strings.CutPrefix(f, "total="); ok {
				n, err := strconv.ParseInt(v, 10, 64)
				return n, err == nil
			}
		}
	}
	return 0, false
}

// steal reads the steal and total jiffies of the aggregate "cpu" line of
// /proc/stat (user nice system idle iowait irq softirq steal ...).
func (w *LoadWatch) steal() (steal, total int64, ok bool) {
	f, err := os.Open(w.proc + "/stat")
	if err != nil {
		return 0, 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := bytes.Fields(sc.Bytes())
		if len(fields) < 9 || string(fields[0]) != "cpu" {
			continue
		}
		// guest and guest_nice (fields 9, 10) are already in user and nice.
		for i, fv := range fields[1:9] {
			n, err := strconv.ParseInt(string(fv), 10, 64)
			if err != nil {
				return 0, 0, false
			}
			total += n
			if i == 7 {
				steal = n
			}
		}
		return steal, total, true
	}
	return 0, 0, false
}
