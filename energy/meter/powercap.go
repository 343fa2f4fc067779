package meter

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

func init() {
	register("powercap", "RAPL energy counters (Intel, AMD) through /sys/class/powercap", openPowercap)
}

// powercapDir is the powercap class directory (Documentation/power/
// powercap/powercap.rst): one directory per zone, "intel-rapl:N" for a
// package and "intel-rapl:N:M" for its sub-zones (core, uncore, dram);
// energy_uj is a counter in µJ that wraps to 0 after max_energy_range_uj.
const powercapDir = "sys/class/powercap"

type raplZone struct {
	dir   string // directory name, "intel-rapl:0"
	name  string // its name file, "package-0"
	top   bool   // a package (or psys) zone, not a sub-zone
	maxUJ uint64 // max_energy_range_uj
}

type powercap struct {
	cfg   Config
	zones []raplZone
}

func openPowercap(cfg Config) (Meter, error) {
	root := filepath.Join(cfg.Root, powercapDir)
	entries, err := os.ReadDir(root)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, &UnavailableError{"powercap", err.Error(), ""}
	}
	p := &powercap{cfg: cfg}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "intel-rapl:") {
			continue // "intel-rapl" itself is the control type, not a zone
		}
		dir := filepath.Join(root, e.Name())
		name, err := readString(filepath.Join(dir, "name"))
		if err != nil {
			return nil, unavailableRead("powercap", err)
		}
		max, err := readUint(filepath.Join(dir, "max_energy_range_uj"))
		if err != nil {
			return nil, unavailableRead("powercap", err)
		}
		if _, err := readUint(filepath.Join(dir, "energy_uj")); err != nil {
			return nil, unavailableRead("powercap", err)
		}
		p.zones = append(p.zones, raplZone{dir: e.Name(), name: name,
			top: strings.Count(e.Name(), ":") == 1, maxUJ: max})
	}
	if len(p.zones) == 0 {
		return nil, &UnavailableError{"powercap",
			"no RAPL zones under /" + powercapDir + " (a virtual machine, a CPU without RAPL, or the intel_rapl_msr module not loaded)",
			"on bare-metal x86 Linux load it (modprobe intel_rapl_msr); elsewhere measure with an external meter and import its trace (cryptocost energy trace)"}
	}
	sort.Slice(p.zones, func(i, j int) bool { return p.zones[i].dir < p.zones[j].dir })
	return p, nil
}

// unavailableRead explains a failed read; a permission error gets the
// reason and the fix, because it is the common case: since Linux 5.10
// energy_uj is readable by root only, after the PLATYPUS power side
// channel (CVE-2020-8694).
func unavailableRead(meter string, err error) error {
	if errors.Is(err, fs.ErrPermission) {
		return &UnavailableError{meter,
			err.Error() + ": the RAPL energy counters are readable by root only since Linux 5.10 (CVE-2020-8694, the PLATYPUS power side channel)",
			"run cryptocost as root, or grant read access until the next boot: sudo chmod o+r /sys/class/powercap/intel-rapl:*/energy_uj"}
	}
	return &UnavailableError{meter, err.Error(), ""}
}

func (p *powercap) Name() string { return "powercap" }

// Detail lists the zones.
func (p *powercap) Detail() string {
	var names []string
	for _, z := range p.zones {
		names = append(names, z.dir+" "+z.name)
	}
	return "zones: " + strings.Join(names, ", ")
}

func (p *powercap) Start(ctx context.Context) (Session, error) {
	s := &raplSession{p: p, start: time.Now(), last: make([]uint64, len(p.zones)), sum: make([]float64, len(p.zones)),
		done: make(chan struct{}), stopped: make(chan struct{})}
	for i, z := range p.zones {
		v, err := readUint(filepath.Join(p.cfg.Root, powercapDir, z.dir, "energy_uj"))
		if err != nil {
			return nil, unavailableRead("powercap", err)
		}
		s.last[i] = v
	}
	s.samples = 1
	go s.loop(ctx)
	return s, nil
}

type raplSession struct {
	p       *powercap
	start   time.Time
	mu      sync.Mutex
	last    []uint64  // last counter value per zone
	sum     []float64 // accumulated µJ per zone
	wraps   int
	samples int
	err     error
	done    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

// loop reads the counters every interval so that no counter can wrap
// twice between two reads: a package range of 262,143 J (a common
// max_energy_range_uj) lasts about 44 minutes at 100 W, far longer than
// any interval.
func (s *raplSession) loop(ctx context.Context) {
	defer close(s.stopped)
	t := time.NewTicker(s.p.cfg.Interval)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-ctx.Done():
			return
		case <-t.C:
			s.sample()
		}
	}
}

// sample reads every counter and adds its increase since the last read;
// a counter below its last value has wrapped past max_energy_range_uj.
func (s *raplSession) sample() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, z := range s.p.zones {
		v, err := readUint(filepath.Join(s.p.cfg.Root, powercapDir, z.dir, "energy_uj"))
		if err != nil {
			if s.err == nil {
				s.err = err
			}
			continue
		}
		s.sum[i] += float64(counterDelta(s.last[i], v, z.maxUJ))
		if v < s.last[i] {
			s.wraps++
		}
		s.last[i] = v
	}
	s.samples++
}

// counterDelta is the increase of a counter from prev to cur when it
// wraps back to 0 after max (max_energy_range_uj): max − prev + cur. The
// off-by-one of an inclusive range is 1 µJ, below the counter's meaning.
func counterDelta(prev, cur, max uint64) uint64 {
	if cur >= prev {
		return cur - prev
	}
	return max - prev + cur
}

func (s *raplSession) Stop() (Reading, error) {
	s.once.Do(func() { close(s.done) })
	<-s.stopped
	s.sample()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return Reading{}, unavailableRead("powercap", s.err)
	}
	r := Reading{Meter: "powercap", Seconds: time.Since(s.start).Seconds(), Samples: s.samples}
	var tops []string
	for i, z := range s.p.zones {
		j := s.sum[i] * 1e-6
		r.Domains = append(r.Domains, Domain{Name: z.dir + " " + z.name, Joules: j})
		// The total is the packages: sub-zones (core, uncore, dram of a
		// package) are parts of it, and psys (the whole platform) overlaps
		// them all.
		if z.top && strings.HasPrefix(z.name, "package") {
			r.Joules += j
			tops = append(tops, z.name)
		}
	}
	if len(tops) == 0 { // no package zone: psys alone, or an unusual layout
		for i, z := range s.p.zones {
			if z.top {
				r.Joules += s.sum[i] * 1e-6
				tops = append(tops, z.name)
			}
		}
	}
	r.Method = fmt.Sprintf("RAPL energy_uj counters read every %v and at start and stop, wrap-around at max_energy_range_uj handled (%d wraps); total = %s", s.p.cfg.Interval, s.wraps, strings.Join(tops, " + "))
	r.Warnings = append(r.Warnings, "RAPL counts the whole package (every process and core), not this process: run on an otherwise idle machine and subtract an idle reading")
	return r, nil
}

func readString(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

func readUint(path string) (uint64, error) {
	s, err := readString(path)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a counter value", path, s)
	}
	return v, nil
}

func readInt(path string) (int64, error) {
	s, err := readString(path)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not an integer", path, s)
	}
	return v, nil
}
