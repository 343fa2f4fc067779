package mcu

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Opts are the optimisation levels --opt accepts. S004 compared a library's
// "fast" and "low memory" builds; -O2 and -Os are avr-gcc's versions of
// that trade-off.
var Opts = []string{"Os", "O1", "O2", "O3"}

// DefaultOpts are the levels a run reports unless told otherwise.
var DefaultOpts = []string{"Os", "O2"}

// Image is a firmware image: one kernel built for one target at one
// optimisation level.
type Image struct {
	Kernel Kernel
	Target Target
	Opt    string
	// ELF is the image file, in the cache directory Dir.
	ELF, Dir string
	// Hash is the SHA-256 of everything that went into the image (sources,
	// flags, compiler version): the cache key.
	Hash   string
	Sizes  Sizes
	Cached bool // found in the cache, not built now
	// GCCVersion and SimVersion name the tools, for provenance.
	GCCVersion, SimVersion string
	// MaxInputs is the cap on inputs per operation the image was built
	// with (0: every input the bench file declares).
	MaxInputs int
	// Code is the image's disassembly, for a target with a cycle estimate.
	Code *Disassembly
}

// Sizes are an image's memory use in bytes.
type Sizes struct {
	// The whole image, from the linker map (and checked against size -A).
	Text, Data, BSS, NoInit int
	// The kernel alone: its objects and the runtime routines only it
	// needs (LinkMap.Attribute). Text includes its constants in flash.
	KernelText, KernelData, KernelBSS int
	// KernelFiles are the objects and archive members counted.
	KernelFiles []string
}

// Flash is what the image occupies in flash: code, constants and the
// initial values of .data.
func (s Sizes) Flash() int { return s.Text + s.Data }

// StaticRAM is the SRAM taken before the stack: .data, .bss and .noinit.
func (s Sizes) StaticRAM() int { return s.Data + s.BSS + s.NoInit }

// KernelROM is the kernel's flash: code, constants, .data initialisers.
func (s Sizes) KernelROM() int { return s.KernelText + s.KernelData }

// KernelRAM is the kernel's static SRAM: .data and .bss.
func (s Sizes) KernelRAM() int { return s.KernelData + s.KernelBSS }

// DoesNotFitError reports an image too big for its target, with the sizes.
type DoesNotFitError struct {
	Image                  *Image
	Flash, FlashMax        int
	StaticRAM, SRAMMax     int
	StackReached, SRAMFree int // set when the stack ran into .bss at run time
	StackNeed              int // set when the kernel's known stack (Kernel.MinStack) does not fit
}

func (e *DoesNotFitError) Error() string {
	t := e.Image.Target
	var why []string
	if e.Flash > e.FlashMax {
		why = append(why, fmt.Sprintf("needs %d B of flash, the %s has %d B", e.Flash, t.Name, e.FlashMax))
	}
	if e.StaticRAM > e.SRAMMax {
		why = append(why, fmt.Sprintf("needs %d B of SRAM for .data and .bss before any stack, the %s has %d B", e.StaticRAM, t.Name, e.SRAMMax))
	}
	switch {
	case e.StackNeed > 0 && e.StaticRAM == 0:
		why = append(why, fmt.Sprintf("its deepest operation needs %d B of stack (measured by painting), more than the %d B of SRAM the %s has (not built)",
			e.StackNeed, e.SRAMMax, t.Name))
	case e.StackNeed > 0:
		why = append(why, fmt.Sprintf("its deepest operation needs %d B of stack (measured by painting) and %d B of .data and .bss, %d B in all; the %s has %d B of SRAM",
			e.StackNeed, e.StaticRAM, e.StackNeed+e.StaticRAM, t.Name, e.SRAMMax))
	}
	if e.StackReached > 0 {
		why = append(why, fmt.Sprintf("its stack used all %d B of SRAM left after %d B of .data and .bss", e.SRAMFree, e.StaticRAM))
	}
	return fmt.Sprintf("%s does not fit the %s (%s): %s", e.Image.Kernel.Name, t.Name, t.Board, strings.Join(why, "; "))
}

// CacheDir is where images are kept: os.UserCacheDir()/cryptocost/mcu.
func CacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for firmware images (%v): set XDG_CACHE_HOME or HOME", err)
	}
	return filepath.Join(dir, "cryptocost", "mcu"), nil
}

// Build returns the image of k for t at opt, from the cache in cacheDir
// when an identical one was built before. An image too big for the target
// is built (the linker's limits are lifted so the sizes can be told) and
// returned with a *DoesNotFitError; so is one whose kernel's known stack
// (Kernel.MinStack) does not fit beside its .data and .bss. A kernel whose
// stack alone exceeds the part's SRAM is not built: nil and the error.
//
// maxInputs > 0 builds an image that times each operation on at most that
// many inputs (tests time one; the command line every secret).
func (tc *Toolchain) Build(ctx context.Context, cacheDir string, t Target, k Kernel, opt string, maxInputs int) (*Image, error) {
	if !slices.Contains(Opts, opt) {
		return nil, fmt.Errorf("unknown optimisation level %q: want one of %s", opt, strings.Join(Opts, ", "))
	}
	if k.MinStack > t.SRAMBytes() {
		// its stack alone is larger than the part's SRAM: not worth
		// building (and on AVR, where a frame is limited to 32 KiB,
		// avr-gcc may refuse to)
		return nil, &DoesNotFitError{Image: &Image{Kernel: k, Target: t, Opt: opt}, SRAMMax: t.SRAMBytes(), StackNeed: k.MinStack}
	}
	files := k.files()
	img := &Image{Kernel: k, Target: t, Opt: opt, GCCVersion: tc.GCCVersion, SimVersion: tc.SimVersion, MaxInputs: maxInputs}
	flags := tc.cflags(t, k, opt, maxInputs)
	hash, err := imageHash(files, append(append(flags, tc.ldflags(t)...), tc.GCCVersion))
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", k.Name, err)
	}
	img.Hash = hash
	img.Dir = filepath.Join(cacheDir, fmt.Sprintf("%s-%s-%s-%s", t.Name, k.Name, opt, hash[:16]))
	img.ELF = filepath.Join(img.Dir, "image.elf")
	if _, err := os.Stat(img.ELF); err == nil {
		img.Cached = true
	} else if err := tc.compile(ctx, cacheDir, img, files, flags); err != nil {
		return nil, err
	}
	if err := tc.measureSizes(ctx, img); err != nil {
		return nil, err
	}
	fit := &DoesNotFitError{Image: img, Flash: img.Sizes.Flash(), FlashMax: t.FlashBytes(),
		StaticRAM: img.Sizes.StaticRAM(), SRAMMax: t.SRAMBytes()}
	switch {
	case fit.Flash > fit.FlashMax || fit.StaticRAM > fit.SRAMMax:
		return img, fit
	case k.MinStack > 0 && fit.StaticRAM+k.MinStack > fit.SRAMMax:
		// it would overflow its stack: tell, do not run it
		fit.StackNeed = k.MinStack
		return img, fit
	}
	return img, nil
}

// cflags are the compiler flags of every file of the image.
func (tc *Toolchain) cflags(t Target, k Kernel, opt string, maxInputs int) []string {
	flags := append(slices.Clone(t.Build.Flags), tc.spec.cflags...)
	flags = append(flags,
		"-DF_CPU="+strconv.FormatFloat(t.ClockHz(), 'f', 0, 64)+"UL",
		"-"+opt, "-std=gnu11", "-Wall", "-Wextra",
		// one section per function and object, so the map attributes
		// every byte and --gc-sections drops what nothing calls
		"-ffunction-sections", "-fdata-sections",
	)
	if maxInputs > 0 {
		flags = append(flags, fmt.Sprintf("-DMCU_MAX_INPUTS=%d", maxInputs))
	}
	return append(flags, k.Defines...)
}

// ldflags are the link's own flags: the layout, and limits lifted so that
// an image too big for the part still links and tells its sizes.
func (tc *Toolchain) ldflags(t Target) []string {
	flags := []string{"-Wl,--gc-sections", "-Wl,-Map=image.map"}
	if t.IsAVR() {
		// these override the limits -mmcu sets in avr-libc's scripts
		return append(flags, "-Wl,--defsym=__TEXT_REGION_LENGTH__=0x100000", "-Wl,--defsym=__DATA_REGION_LENGTH__=0xffa0")
	}
	flags = append(flags, tc.spec.ldflags...)
	return append(flags,
		fmt.Sprintf("-Wl,--defsym=__flash_origin=%#x", t.Build.FlashOrigin),
		fmt.Sprintf("-Wl,--defsym=__ram_origin=%#x", t.Build.RAMOrigin),
		fmt.Sprintf("-Wl,--defsym=__ram_length=%#x", t.SRAMBytes()))
}

// harnessSources are the harness's files for target t: the portable part
// and the platform's.
func harnessSources(t Target) []string {
	return []string{"harness.c", "platform_" + t.Build.Platform + ".c"}
}

// imageHash covers every source file (any change rebuilds) and the flags.
func imageHash(files fs.FS, flags []string) (string, error) {
	h := sha256.New()
	var names []string
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		return "", err
	}
	slices.Sort(names)
	for _, n := range names {
		data, err := fs.ReadFile(files, n)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", n, len(data))
		h.Write(data)
	}
	fmt.Fprintf(h, "flags %q\n", flags)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// compile builds the image in a scratch directory of the cache and moves
// it into place, so a cached image is always complete.
func (tc *Toolchain) compile(ctx context.Context, cacheDir string, img *Image, files fs.FS, flags []string) error {
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return fmt.Errorf("firmware cache: %w", err)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".build-")
	if err != nil {
		return fmt.Errorf("firmware cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := os.CopyFS(tmp, files); err != nil {
		return fmt.Errorf("kernel %s: copying sources: %w", img.Kernel.Name, err)
	}
	// The kernel's objects go first on the link line: LinkMap.Attribute
	// counts the library routines they pull in as theirs.
	k := img.Kernel
	var objects []string
	gcc := filepath.Base(tc.GCC)
	for _, src := range append(append(slices.Clone(k.Sources), k.Bench), harnessSources(img.Target)...) {
		obj := src + ".o"
		args := append(slices.Clone(flags), "-c", src, "-o", obj)
		if out, err := tc.run(ctx, tmp, tc.GCC, args...); err != nil {
			return fmt.Errorf("kernel %s for %s: %s -%s %s: %v\n%s", k.Name, img.Target.Name, gcc, img.Opt, src, err, out)
		}
		objects = append(objects, obj)
	}
	args := append(slices.Clone(flags), tc.ldflags(img.Target)...)
	args = append(append(args, "-o", "image.elf"), objects...)
	if out, err := tc.run(ctx, tmp, tc.GCC, args...); err != nil {
		return fmt.Errorf("kernel %s for %s: linking: %v\n%s", k.Name, img.Target.Name, err, out)
	}
	if err := os.WriteFile(filepath.Join(tmp, "objects"), []byte(strings.Join(objects, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, img.Dir); err != nil && !isExist(err) {
		return fmt.Errorf("firmware cache: %w", err)
	}
	return nil
}

func isExist(err error) bool {
	return errors.Is(err, fs.ErrExist) || errors.Is(err, os.ErrExist) || strings.Contains(err.Error(), "directory not empty")
}

func (tc *Toolchain) run(ctx context.Context, dir, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// measureSizes reads the image's map, attributes the kernel's share, and
// checks the totals against size -A: two independent counts of one image.
func (tc *Toolchain) measureSizes(ctx context.Context, img *Image) error {
	f, err := os.Open(filepath.Join(img.Dir, "image.map"))
	if err != nil {
		return fmt.Errorf("kernel %s: %w", img.Kernel.Name, err)
	}
	defer f.Close()
	m, err := ParseLinkMap(f)
	if err != nil {
		return fmt.Errorf("kernel %s: image.map: %w", img.Kernel.Name, err)
	}
	s := &img.Sizes
	s.Text, s.Data, s.BSS, s.NoInit = m.Outputs[".text"], m.Outputs[".data"], m.Outputs[".bss"], m.Outputs[".noinit"]
	var objects []string
	for _, src := range img.Kernel.Sources {
		objects = append(objects, src+".o")
	}
	own := m.Attribute(objects)
	s.KernelText = m.Sum(".text", own)
	s.KernelData = m.Sum(".data", own)
	s.KernelBSS = m.Sum(".bss", own) + m.Sum(".noinit", own)
	for f := range own {
		s.KernelFiles = append(s.KernelFiles, f)
	}
	slices.Sort(s.KernelFiles)

	out, err := tc.run(ctx, img.Dir, tc.Size, "-A", "image.elf")
	if err != nil {
		return fmt.Errorf("kernel %s: %s: %v\n%s", img.Kernel.Name, filepath.Base(tc.Size), err, out)
	}
	got := parseAvrSizeA(out)
	for _, sec := range []struct {
		name string
		n    int
	}{{".text", s.Text}, {".data", s.Data}, {".bss", s.BSS}, {".noinit", s.NoInit}} {
		if got[sec.name] != sec.n {
			return fmt.Errorf("kernel %s: the linker map says %s is %d B, %s says %d B", img.Kernel.Name, sec.name, sec.n, filepath.Base(tc.Size), got[sec.name])
		}
	}
	return nil
}

// parseAvrSizeA reads `size -A`'s "section size addr" table (binutils, any
// target).
func parseAvrSizeA(out string) map[string]int {
	sizes := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader([]byte(out)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && strings.HasPrefix(f[0], ".") {
			if n, err := strconv.Atoi(f[1]); err == nil {
				sizes[f[0]] = n
			}
		}
	}
	return sizes
}
