package remotesign

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime/metrics"
	"strconv"
)

// What the signer's memory is, measured two ways (docs/scenario-remote-sign.md):
//
//   - A signer in its own process (--signer process): the process's
//     resident set from /proc/PID/status (proc(5)): VmRSS when a
//     connection is accepted, the signer listening with its keys loaded,
//     and VmHWM at the connection's end, its peak while signing, after the
//     peak was reset at accept by writing 5 to /proc/PID/clear_refs
//     (Linux ≥ 4.0, proc(5)). This is the figure S001's "memory listening
//     vs signing" asks for, without the client's memory in it.
//   - A signer in this process (the default): the Go heap, since the RSS
//     would hold the client and the harness too. Listening: the live heap
//     after a collection, just before the connection; signing: the most
//     heap in use (live and not yet collected objects,
//     /memory/classes/heap/objects:bytes) read after each response. Both are
//     the whole process's heap: signer, client and harness.

// heapObjectsMetric is runtime/metrics' count of bytes in heap objects,
// live or not yet swept; reading it does not stop the world.
const heapObjectsMetric = "/memory/classes/heap/objects:bytes"

// heapBytes reads the Go heap's object bytes.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: heapObjectsMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// processMemory is one reading of a process's resident set.
type processMemory struct {
	RSS, PeakRSS uint64 // bytes: VmRSS, VmHWM
}

// readProcessMemory reads VmRSS and VmHWM from /proc/PID/status ("self"
// for this process).
func readProcessMemory(pid string) (processMemory, error) {
	data, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return processMemory{}, fmt.Errorf("signer memory: %w (the resident set is read from /proc: Linux only)", err)
	}
	var m processMemory
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		key, rest, ok := bytes.Cut(sc.Bytes(), []byte(":"))
		if !ok {
			continue
		}
		var dst *uint64
		switch string(key) {
		case "VmRSS":
			dst = &m.RSS
		case "VmHWM":
			dst = &m.PeakRSS
		default:
			continue
		}
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			return processMemory{}, fmt.Errorf("signer memory: /proc/%s/status: %s: %q is not a size in kB", pid, key, rest)
		}
		kb, err := strconv.ParseUint(string(f[0]), 10, 64)
		if err != nil {
			return processMemory{}, fmt.Errorf("signer memory: /proc/%s/status: %s: %w", pid, key, err)
		}
		*dst = kb * 1024
		found++
	}
	if found != 2 {
		return processMemory{}, fmt.Errorf("signer memory: /proc/%s/status has no VmRSS and VmHWM", pid)
	}
	return m, nil
}

// resetPeakRSS resets the process's VmHWM to its current VmRSS.
func resetPeakRSS(pid string) error {
	if err := os.WriteFile("/proc/"+pid+"/clear_refs", []byte("5"), 0); err != nil {
		return fmt.Errorf("signer memory: resetting the peak resident set: %w", err)
	}
	return nil
}
