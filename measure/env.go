package measure

import (
	"bufio"
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// NewRun starts a complete run of kind on this machine: result.NewRun with
// the environment captured.
func NewRun(kind string) *result.Run { return result.NewRun(kind, CaptureEnvironment()) }

// CaptureEnvironment records the machine and software a run measures on.
// What cannot be read is left empty and explained in Notes.
func CaptureEnvironment() result.Environment {
	env := result.Environment{
		OS:         runtime.GOOS,
		Arch:       runtime.GOARCH,
		GoVersion:  runtime.Version(),
		CPUs:       runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
	}
	env.Hostname, _ = os.Hostname()
	env.MachineID = machineID()
	env.Kernel = kernelRelease()
	if bi, ok := debug.ReadBuildInfo(); ok {
		env.Deps = map[string]string{}
		for _, d := range bi.Deps {
			v := d.Version
			if d.Replace != nil {
				v += " => " + d.Replace.Path + " " + d.Replace.Version
			}
			env.Deps[d.Path] = v
		}
		for _, s := range bi.Settings {
			if s.Key == "GOARM" || s.Key == "GOAMD64" || s.Key == "GOARM64" || s.Key == "GORISCV64" {
				if s.Key == "GOARM" {
					env.GOARM = s.Value
				} else {
					env.Notes = append(env.Notes, s.Key+"="+s.Value)
				}
			}
		}
	}
	if runtime.GOOS == "linux" {
		readCPUInfo(&env)
		readCPUFreq(&env)
	}
	return env
}

// readCPUInfo takes the model name, clock and hypervisor flag from
// /proc/cpuinfo (x86 and most ARM kernels; ARM often has no model name).
func readCPUInfo(env *result.Environment) {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		env.Notes = append(env.Notes, "cpu model unknown: "+err.Error())
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "model name", "Processor", "cpu model", "uarch":
			if env.CPUModel == "" {
				env.CPUModel = v
			}
		case "Hardware": // ARM boards: the SoC
			if env.CPUModel == "" {
				env.CPUModel = v
			}
		case "cpu MHz":
			if env.CPUMHz == 0 {
				if mhz, err := strconv.ParseFloat(v, 64); err == nil {
					env.CPUMHz, env.CPUMHzFrom = mhz, "/proc/cpuinfo cpu MHz"
				}
			}
		case "flags":
			if env.Virtual == "" && strings.Contains(" "+v+" ", " hypervisor ") {
				env.Virtual = "hypervisor (cpuinfo flag)"
			}
		}
	}
}

// readCPUFreq prefers cpufreq's maximum clock (the nominal rate the
// estimate of cycles should use) over cpuinfo's instantaneous one, and
// records the governor.
func readCPUFreq(env *result.Environment) {
	const dir = "/sys/devices/system/cpu/cpu0/cpufreq/"
	if b, err := os.ReadFile(dir + "scaling_governor"); err == nil {
		env.Governor = strings.TrimSpace(string(b))
	}
	for _, name := range []string{"cpuinfo_max_freq", "scaling_max_freq"} {
		if b, err := os.ReadFile(dir + name); err == nil {
			if khz, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64); err == nil && khz > 0 {
				env.CPUMHz, env.CPUMHzFrom = khz/1000, dir+name
				return
			}
		}
	}
	if env.Governor == "" {
		env.Notes = append(env.Notes, "no cpufreq in sysfs: clock rate and governor not readable (common in virtual machines)")
	}
}

func kernelRelease() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// GitCommit returns the commit of the cryptocost source tree the binary was
// built from: the VCS stamp when the build has one, otherwise — for
// `go run` in a checkout, where GOFLAGS=-buildvcs=false or a dirty tree
// leaves none — the checkout in the working directory if it is
// cryptocost's own (its go.mod names module). "+dirty" marks local changes.
func GitCommit(module string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, dirty string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "+dirty"
				}
			}
		}
		if rev != "" {
			return rev + dirty
		}
	}
	gomod, err := os.ReadFile("go.mod")
	if err != nil || !bytes.Contains(gomod, []byte("module "+module+"\n")) {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	rev, err := exec.CommandContext(ctx, "git", "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	commit := strings.TrimSpace(string(rev))
	if st, err := exec.CommandContext(ctx, "git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		commit += "+dirty"
	}
	return commit
}

// machineID identifies this machine across runs without revealing its
// /etc/machine-id (which machine-id(5) asks to keep confidential): an
// HMAC-SHA256 keyed by it over "cryptocost", cut to 128 bits — the
// application-specific ID that sd_id128_get_machine_app_specific(3)
// recommends, in spirit. Boards of a lab often share a host name
// ("raspberrypi"); their machine IDs differ. "" where there is none.
func machineID() string {
	for _, p := range []string{"/etc/machine-id", "/var/lib/dbus/machine-id"} {
		b, err := os.ReadFile(p)
		if id := strings.TrimSpace(string(b)); err == nil && id != "" {
			mac := hmac.New(sha256.New, []byte(id))
			mac.Write([]byte("cryptocost"))
			return hex.EncodeToString(mac.Sum(nil)[:16])
		}
	}
	return ""
}
