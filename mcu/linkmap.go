package mcu

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
)

// LinkMap is what a GNU ld map file (-Wl,-Map) says about an image: every
// input section placed in it, with its size and the file it came from, and
// which file's reference pulled each archive member in. cryptocost counts
// a kernel's ROM and static RAM from it.
type LinkMap struct {
	// Outputs are the sizes of the output sections (.text, .data, .bss,
	// .noinit) as the linker placed them.
	Outputs map[string]int
	// Inputs are the input sections inside those output sections.
	Inputs []InputSection
	// PulledBy maps an archive member ("libgcc.a(_mulsi3.o)") to the file
	// whose undefined reference included it.
	PulledBy map[string]string
}

// InputSection is one input section in the image.
type InputSection struct {
	Output string // ".text", ".data", ".bss", ".noinit"
	Name   string // ".text.aes128_encrypt"
	Size   int
	File   string // "aes.c.o", "libgcc.a(_mulsi3.o)"
}

// mapOutputs are the output sections that hold code, constants and RAM.
var mapOutputs = map[string]bool{".text": true, ".data": true, ".bss": true, ".noinit": true}

// ParseLinkMap reads a map file written by avr-ld (binutils 2.26 and
// later). File names are reduced to their base name, members to
// "archive(member)".
func ParseLinkMap(r io.Reader) (*LinkMap, error) {
	m := &LinkMap{Outputs: map[string]int{}, PulledBy: map[string]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	const (
		preamble = iota
		members
		memoryMap
	)
	state := preamble
	var (
		member     string // archive member waiting for its referencing file
		output     string // current output section, "" if not one we count
		pendingOut string // an output section name alone on its line
		pendingIn  string // an input section name alone on its line
		line       int
	)
	for sc.Scan() {
		line++
		text := sc.Text()
		switch {
		case strings.HasPrefix(text, "Archive member included"):
			state = members
			continue
		case strings.HasPrefix(text, "Linker script and memory map"):
			state = memoryMap
			continue
		case state == members && (strings.HasPrefix(text, "Allocating common symbols") ||
			strings.HasPrefix(text, "Discarded input sections") || strings.HasPrefix(text, "Memory Configuration")):
			state = preamble
			continue
		}
		switch state {
		case members:
			if text == "" {
				continue
			}
			if !strings.HasPrefix(text, " ") {
				member = fileName(strings.TrimSpace(text))
				continue
			}
			if member != "" {
				by := strings.TrimSpace(text)
				if i := strings.LastIndex(by, " ("); i > 0 {
					by = by[:i]
				}
				m.PulledBy[member] = fileName(by)
				member = ""
			}
		case memoryMap:
			f := strings.Fields(text)
			if len(f) == 0 {
				continue
			}
			if !strings.HasPrefix(text, " ") { // an output section
				pendingIn = ""
				name := f[0]
				if !strings.HasPrefix(name, ".") {
					output = ""
					continue
				}
				if len(f) == 1 {
					pendingOut = name
					output = ""
					continue
				}
				if err := m.output(name, f, line); err != nil {
					return nil, err
				}
				output = outputIf(name)
				continue
			}
			if pendingOut != "" { // the address and size of the named output section
				name := pendingOut
				pendingOut = ""
				if err := m.output(name, append([]string{name}, f...), line); err != nil {
					return nil, err
				}
				output = outputIf(name)
				continue
			}
			if output == "" {
				continue
			}
			if pendingIn != "" { // address, size, file of the named input section
				name := pendingIn
				pendingIn = ""
				if len(f) >= 3 && strings.HasPrefix(f[1], "0x") {
					if err := m.input(output, name, f[1], strings.Join(f[2:], " "), line); err != nil {
						return nil, err
					}
				}
				continue
			}
			if text[0] == ' ' && len(text) > 1 && text[1] != ' ' { // " name ..." : an input section
				name := f[0]
				if strings.HasPrefix(name, "*") && name != "*fill*" { // a script pattern, "*(.text)"
					continue
				}
				if len(f) == 1 {
					pendingIn = name
					continue
				}
				if name == "*fill*" {
					if len(f) >= 3 {
						if err := m.input(output, name, f[2], "", line); err != nil {
							return nil, err
						}
					}
					continue
				}
				if len(f) >= 4 && strings.HasPrefix(f[1], "0x") && strings.HasPrefix(f[2], "0x") {
					if err := m.input(output, name, f[2], strings.Join(f[3:], " "), line); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if state != memoryMap || len(m.Outputs) == 0 {
		return nil, fmt.Errorf("not a GNU ld map file: no \"Linker script and memory map\" with output sections")
	}
	return m, nil
}

func outputIf(name string) string {
	if mapOutputs[name] {
		return name
	}
	return ""
}

func (m *LinkMap) output(name string, f []string, line int) error {
	if !mapOutputs[name] || len(f) < 3 {
		return nil
	}
	size, err := strconv.ParseUint(strings.TrimPrefix(f[2], "0x"), 16, 32)
	if err != nil {
		return fmt.Errorf("map line %d: size of %s: %v", line, name, err)
	}
	m.Outputs[name] = int(size)
	return nil
}

func (m *LinkMap) input(output, name, size, file string, line int) error {
	n, err := strconv.ParseUint(strings.TrimPrefix(size, "0x"), 16, 32)
	if err != nil {
		return fmt.Errorf("map line %d: size of %s: %v", line, name, err)
	}
	m.Inputs = append(m.Inputs, InputSection{Output: output, Name: name, Size: int(n), File: fileName(file)})
	return nil
}

// fileName reduces "/usr/lib/gcc/avr/5.4.0/avr5/libgcc.a(_mulsi3.o)" to
// "libgcc.a(_mulsi3.o)" and "/tmp/x/aes.c.o" to "aes.c.o".
func fileName(p string) string {
	if i := strings.Index(p, "("); i > 0 && strings.HasSuffix(p, ")") {
		return filepath.Base(p[:i]) + p[i:]
	}
	return filepath.Base(p)
}

// startupMembers are runtime routines every C program with initialised or
// zeroed data links, whoever references them first; they are not a
// kernel's cost.
var startupMembers = []string{"(_copy_data.o)", "(_clear_bss.o)", "(_exit.o)", "(_ctors.o)", "(_dtors.o)"}

// Attribute returns the files counted as a kernel's: its own objects and
// the archive members pulled in, directly or through other such members,
// by them. The kernel's objects come first on the link line, so a routine
// the kernel and the harness both use is the kernel's: it is what the
// kernel needs in a program of its own.
func (m *LinkMap) Attribute(objects []string) map[string]bool {
	own := map[string]bool{}
	for _, o := range objects {
		own[o] = true
	}
	for changed := true; changed; {
		changed = false
		for member, by := range m.PulledBy {
			if own[member] || !own[by] || isStartup(member) {
				continue
			}
			own[member] = true
			changed = true
		}
	}
	return own
}

func isStartup(member string) bool {
	for _, s := range startupMembers {
		if strings.HasSuffix(member, s) {
			return true
		}
	}
	return false
}

// Sum adds the sizes of the input sections of files in output.
func (m *LinkMap) Sum(output string, files map[string]bool) int {
	n := 0
	for _, in := range m.Inputs {
		if in.Output == output && files[in.File] {
			n += in.Size
		}
	}
	return n
}
