package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"

	"github.com/cryptocost/cryptocost/scheme"
	"golang.org/x/sys/unix"
)

func cpu() int64 {
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return ts.Nano()
}
func csw() (int64, int64) {
	var ru unix.Rusage
	unix.Getrusage(unix.RUSAGE_THREAD, &ru)
	return ru.Nvcsw, ru.Nivcsw
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "spin" {
		runtime.GOMAXPROCS(1)
		x := uint64(1)
		for {
			x = x*6364136223846793005 + 1
		}
	}
	s, _ := scheme.Lookup(os.Args[1])
	var op scheme.Operation
	for _, o := range s.Operations() {
		if o.Name == os.Args[2] {
			op = o
		}
	}
	loop, err := op.Prepare(scheme.Args{Size: 32})
	if err != nil {
		panic(err)
	}
	runtime.LockOSThread()
	if len(os.Args) > 3 {
		var all, clean []float64
		for range 400 {
			_, i0 := csw()
			c0 := cpu()
			loop(12)
			c1 := cpu()
			_, i1 := csw()
			v := float64(c1-c0) / 12
			all = append(all, v)
			if i1 == i0 {
				clean = append(clean, v)
			}
		}
		fmt.Printf("all median %.0f (n=%d), clean median %.0f (n=%d)\n", med(all), len(all), med(clean), len(clean))
		return
	}
	for _, loops := range []int{0, 4, 0, 4} {
		var procs []*exec.Cmd
		for range loops {
			c := exec.Command(os.Args[0], "spin")
			c.Start()
			procs = append(procs, c)
		}
		for _, n := range []int{50, 12, 3} {
			var clean, dirty []float64
			for range 300 {
				_, i0 := csw()
				c0 := cpu()
				loop(n)
				c1 := cpu()
				_, i1 := csw()
				v := float64(c1-c0) / float64(n)
				if i1 == i0 {
					clean = append(clean, v)
				} else {
					dirty = append(dirty, v)
				}
			}
			fmt.Printf("loops=%d batch=%d: clean %d median %.0f; preempted %d median %.0f\n", loops, n, len(clean), med(clean), len(dirty), med(dirty))
		}
		for _, p := range procs {
			p.Process.Kill()
			p.Wait()
		}
	}
}

func med(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	slices.Sort(x)
	return x[len(x)/2]
}
