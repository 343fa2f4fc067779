package mcu

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strconv"
	"strings"
)

// QEMU counts instructions exactly but does not model a core's timing. The
// cycles of a Cortex-M0, M3 or M4 are estimated here from what ran: the
// profiler (profiler.c) says how often each block of instructions executed
// and how often the branch ending it was taken; each instruction's class
// (from the image's disassembly) costs the cycles the core's Technical
// Reference Manual gives for it. The TRMs give some costs as ranges — the
// pipeline refill P after a taken branch is 1 to 3 cycles, the Cortex-M3's
// long multiplies and every divide terminate early depending on the
// operands — so an estimate is three numbers: the low end, the middle this
// package reports, and the high end.
//
// The rule assumes zero wait states (code and data in single-cycle memory),
// as the TRM tables do; a part running from slower flash (the nRF52840 and
// STM32L4 insert wait states above 16 or 24 MHz, hidden partly by their
// caches and prefetch) takes more. Neither the rule nor QEMU models that.

// Insn is one instruction of an image's disassembly.
type Insn struct {
	Addr uint64
	Size int    // bytes
	Op   string // mnemonic as objdump prints it, without .n/.w: "ldr", "bne", "pop"
	Args string // operands, comments removed: "r3, [r2, #4]"
}

// Disassembly is an image's code, by address.
type Disassembly struct {
	insns []Insn
	at    map[uint64]int
}

// Disassemble reads the image's code with objdump -d.
func (tc *Toolchain) Disassemble(ctx context.Context, img *Image) (*Disassembly, error) {
	out, err := exec.CommandContext(ctx, tc.Objdump, "-d", img.ELF).Output()
	if err != nil {
		return nil, fmt.Errorf("%s -d: %w", tc.Objdump, err)
	}
	return parseObjdump(out), nil
}

// parseObjdump reads objdump -d lines: "     8:	4770      	bx	lr" (address,
// raw bytes in halfwords or words, mnemonic, operands).
func parseObjdump(out []byte) *Disassembly {
	d := &Disassembly{at: map[uint64]int{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) < 3 || !strings.HasSuffix(parts[0], ":") {
			continue
		}
		addr, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(parts[0], ":")), 16, 64)
		if err != nil {
			continue
		}
		raw := strings.ReplaceAll(strings.TrimSpace(parts[1]), " ", "")
		op := strings.ToLower(strings.TrimSpace(parts[2]))
		if op == "" || strings.HasPrefix(op, ".") || len(raw)%2 != 0 {
			continue // data in the code (.word)
		}
		op = strings.TrimSuffix(strings.TrimSuffix(op, ".n"), ".w")
		args := ""
		if len(parts) > 3 {
			args = strings.Join(parts[3:], " ")
			for _, c := range []string{"@", ";", "<"} {
				if i := strings.Index(args, c); i >= 0 {
					args = args[:i]
				}
			}
			args = strings.TrimSpace(args)
		}
		d.at[addr] = len(d.insns)
		d.insns = append(d.insns, Insn{Addr: addr, Size: len(raw) / 2, Op: op, Args: args})
	}
	return d
}

// Cost is a number of cycles as the TRM allows it to be: lowest, middle
// (the estimate reported) and highest.
type Cost struct{ Lo, Mid, Hi float64 }

func (c Cost) add(d Cost, times float64) Cost {
	return Cost{c.Lo + d.Lo*times, c.Mid + d.Mid*times, c.Hi + d.Hi*times}
}

func (c Cost) sub(d Cost) Cost { return Cost{c.Lo - d.Lo, c.Mid - d.Mid, c.Hi - d.Hi} }

func fixed(n float64) Cost { return Cost{n, n, n} }

// insnCost is what one instruction costs: when it falls through to the next
// one, and, for a branch, when it is taken. always says the instruction
// always branches (B, BL, BX, POP {pc}): every execution is taken.
type insnCost struct {
	seq, taken Cost
	branch     bool
	always     bool
}

// cycleRule is one core's cost table.
type cycleRule struct {
	// Source is the TRM table the costs come from.
	Source string
	// Assumes lists the values chosen inside the TRM's ranges.
	Assumes string
	cost    func(prev, cur *Insn) (insnCost, error)
}

// cycleRules is the registry of rules, by the name targets give.
var cycleRules = map[string]*cycleRule{
	"cortex-m0": {
		Source:  "Cortex-M0 Technical Reference Manual (Arm DDI 0432C) Table 3-1, zero wait states",
		Assumes: "MULS 1 cycle (the fast multiplier; 32 with the small one: the high end)",
		cost:    costM0,
	},
	"cortex-m3": {
		Source:  "Cortex-M3 Technical Reference Manual (Arm DDI 0337I) Table 3-1, zero wait states",
		Assumes: "pipeline refill P = 2 (1 to 3); UMULL/SMULL 4 (3 to 5), UMLAL/SMLAL 5.5 (4 to 7), SDIV/UDIV 7 (2 to 12); a load or store after a load pipelines (1 cycle) unless it addresses through the loaded register; IT folds (0 cycles) after a 16-bit instruction",
		cost:    func(prev, cur *Insn) (insnCost, error) { return costV7M(prev, cur, false) },
	},
	"cortex-m4": {
		Source:  "Cortex-M4 Technical Reference Manual (Arm DDI 0439B) Table 3-1, zero wait states",
		Assumes: "pipeline refill P = 2 (1 to 3); SDIV/UDIV 7 (2 to 12); a load or store after a load pipelines (1 cycle) unless it addresses through the loaded register; IT folds (0 cycles) after a 16-bit instruction",
		cost:    func(prev, cur *Insn) (insnCost, error) { return costV7M(prev, cur, true) },
	},
}

func cycleRuleNames() []string { return slices.Sorted(maps.Keys(cycleRules)) }

// refill is P, the TRM's pipeline refill after a taken branch (Cortex-M3
// and M4 TRM Table 3-1 notes: "1 to 3 depending on the alignment and width
// of the target instruction, and whether the processor manages to
// speculate the address early").
var refill = Cost{1, 2, 3}

// conds are the condition suffixes (ARMv7-M ARM A7.3).
var conds = []string{"eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le", "al"}

// mnemonics are the base mnemonics the rules know, and whether each may
// take an S (flag-setting) suffix.
var mnemonics = map[string]bool{
	"adc": true, "add": true, "addw": false, "adr": false, "and": true, "asr": true, "bic": true, "bfc": false, "bfi": false,
	"clz": false, "cmn": false, "cmp": false, "eor": true, "lsl": true, "lsr": true, "mov": true, "movw": false, "movt": false,
	"mvn": true, "neg": true, "orn": true, "orr": true, "rbit": false, "rev": false, "rev16": false, "revsh": false, "ror": true,
	"rrx": true, "rsb": true, "sbc": true, "sbfx": false, "sub": true, "subw": false, "sxtb": false, "sxth": false, "teq": false,
	"tst": false, "ubfx": false, "uxtb": false, "uxth": false, "ssat": false, "usat": false, "nop": false, "cpsid": false,
	"cpsie": false, "mrs": false, "msr": false, "sxtab": false, "sxtah": false, "uxtab": false, "uxtah": false,
	"mul": true, "mla": false, "mls": false, "umull": true, "smull": true, "umlal": true, "smlal": true, "umaal": false,
	"sdiv": false, "udiv": false,
	"ldr": false, "ldrb": false, "ldrh": false, "ldrsb": false, "ldrsh": false, "ldrd": false, "ldrex": false, "ldrt": false,
	"str": false, "strb": false, "strh": false, "strd": false, "strex": false, "strt": false, "clrex": false, "pld": false,
	"ldm": false, "ldmia": false, "ldmdb": false, "ldmfd": false, "stm": false, "stmia": false, "stmdb": false, "stmea": false,
	"push": false, "pop": false,
	"b": false, "bl": false, "bx": false, "blx": false, "cbz": false, "cbnz": false, "tbb": false, "tbh": false,
	"dmb": false, "dsb": false, "isb": false, "wfi": false, "wfe": false, "sev": false, "yield": false,
	"bkpt": false, "svc": false, "udf": false,
}

// dsp are the ARMv7E-M DSP-extension instructions: one cycle on the
// Cortex-M4 (TRM Table 3-1), absent on the M0 and M3.
var dsp = map[string]bool{}

func init() {
	for _, m := range strings.Fields(`pkhbt pkhtb qadd qadd8 qadd16 qasx qdadd qdsub qsax qsub qsub8 qsub16 sadd8 sadd16
		sasx sel shadd8 shadd16 shasx shsax shsub8 shsub16 smlabb smlabt smlatb smlatt smlad smladx smlalbb smlalbt smlaltb
		smlaltt smlald smlaldx smlawb smlawt smlsd smlsdx smlsld smlsldx smmla smmlar smmls smmlsr smmul smmulr smuad smuadx
		smulbb smulbt smultb smultt smulwb smulwt smusd smusdx ssat16 ssax ssub8 ssub16 sxtab16 sxtb16 uadd8 uadd16 uasx
		uhadd8 uhadd16 uhasx uhsax uhsub8 uhsub16 uqadd8 uqadd16 uqasx uqsax uqsub8 uqsub16 usad8 usada8 usat16 usax usub8
		usub16 uxtab16 uxtb16`) {
		dsp[m] = true
		mnemonics[m] = false
	}
}

// baseMnemonic strips a condition and S suffix: "addseq" → "add",
// "bls" → "b" (bl takes no S), "ldrbne" → "ldrb". IT instructions come back
// as "it".
func baseMnemonic(op string) (string, error) {
	if strings.HasPrefix(op, "it") && strings.Trim(op[2:], "te") == "" {
		return "it", nil
	}
	best := ""
	for m, s := range mnemonics {
		if len(m) <= len(best) || !strings.HasPrefix(op, m) {
			continue
		}
		rest := op[len(m):]
		ok := rest == "" || slices.Contains(conds, rest)
		if s && strings.HasPrefix(rest, "s") {
			ok = ok || rest == "s" || slices.Contains(conds, rest[1:])
		}
		if ok {
			best = m
		}
	}
	if best == "" {
		return "", fmt.Errorf("no cycle rule for the instruction %q", op)
	}
	return best, nil
}

// conditional reports whether op carries a condition (B<cond>, or an
// instruction inside an IT block).
func conditional(op, base string) bool {
	rest := strings.TrimPrefix(strings.TrimPrefix(op, base), "s")
	return rest != "" && rest != "al" && slices.Contains(conds, rest)
}

// operands splits "r3, [r2, #4]" at top-level commas.
func operands(args string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range args {
		switch c {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(args[start:i]))
				start = i + 1
			}
		}
	}
	if s := strings.TrimSpace(args[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// regList counts a register list "{r4, r5, r8-r11, lr}" and says whether it
// holds pc.
func regList(args string) (n int, pc bool) {
	i, j := strings.Index(args, "{"), strings.Index(args, "}")
	if i < 0 || j < i {
		return 0, false
	}
	for _, r := range strings.Split(args[i+1:j], ",") {
		r = strings.TrimSpace(r)
		if lo, hi, ok := strings.Cut(r, "-"); ok {
			a, _ := strconv.Atoi(strings.TrimPrefix(lo, "r"))
			b, _ := strconv.Atoi(strings.TrimPrefix(hi, "r"))
			n += b - a + 1
			continue
		}
		if r == "pc" {
			pc = true
		}
		if r != "" {
			n++
		}
	}
	return n, pc
}

// addressRegs are the registers inside a load or store's brackets.
func addressRegs(args string) []string {
	i, j := strings.Index(args, "["), strings.Index(args, "]")
	if i < 0 || j < i {
		return nil
	}
	var regs []string
	for _, f := range strings.Split(args[i+1:j], ",") {
		f = strings.Fields(strings.TrimSpace(f) + " ")[0]
		if f != "" && !strings.HasPrefix(f, "#") {
			regs = append(regs, f)
		}
	}
	return regs
}

func isSingleLoad(b string) bool {
	switch b {
	case "ldr", "ldrb", "ldrh", "ldrsb", "ldrsh", "ldrt":
		return true
	}
	return false
}

// costV7M is the Cortex-M3 and M4 table (the M4's single-cycle multiplier
// and DSP instructions when m4).
func costV7M(prev, cur *Insn, m4 bool) (insnCost, error) {
	b, err := baseMnemonic(cur.Op)
	if err != nil {
		return insnCost{}, err
	}
	ops := operands(cur.Args)
	toPC := len(ops) > 0 && ops[0] == "pc"
	one := fixed(1)
	branch := func(seq Cost, extra Cost, always bool) insnCost {
		return insnCost{seq: seq, taken: seq.add(extra, 1), branch: true, always: always}
	}
	switch {
	case b == "it":
		// "An IT instruction can be folded onto a preceding 16-bit Thumb
		// instruction, enabling execution in zero cycles."
		if prev != nil && prev.Size == 2 {
			return insnCost{seq: Cost{0, 0, 1}}, nil
		}
		return insnCost{seq: Cost{0, 1, 1}}, nil
	case dsp[b]:
		if !m4 {
			return insnCost{}, fmt.Errorf("%q is a DSP instruction the Cortex-M3 does not have", cur.Op)
		}
		return insnCost{seq: one}, nil
	}
	switch b {
	case "mul", "adr", "movw", "movt", "addw", "subw", "bfc", "bfi", "sbfx", "ubfx", "clz", "rbit", "rev", "rev16", "revsh",
		"sxtb", "sxth", "uxtb", "uxth", "ssat", "usat", "cmp", "cmn", "tst", "teq", "nop", "cpsid", "cpsie", "mrs", "msr",
		"clrex", "pld", "sev", "yield":
		return insnCost{seq: one}, nil
	case "sxtab", "sxtah", "uxtab", "uxtah":
		if !m4 {
			return insnCost{}, fmt.Errorf("%q is an ARMv7E-M instruction the Cortex-M3 does not have", cur.Op)
		}
		return insnCost{seq: one}, nil
	case "adc", "add", "and", "asr", "bic", "eor", "lsl", "lsr", "mov", "mvn", "neg", "orn", "orr", "ror", "rrx", "rsb", "sbc", "sub":
		if toPC {
			return branch(one, refill, true), nil // "MOV PC, Rm: 1 + P"
		}
		return insnCost{seq: one}, nil
	case "mla", "mls":
		if m4 {
			return insnCost{seq: one}, nil
		}
		return insnCost{seq: fixed(2)}, nil
	case "umull", "smull":
		if m4 {
			return insnCost{seq: one}, nil
		}
		return insnCost{seq: Cost{3, 4, 5}}, nil // early termination
	case "umlal", "smlal":
		if m4 {
			return insnCost{seq: one}, nil
		}
		return insnCost{seq: Cost{4, 5.5, 7}}, nil
	case "umaal":
		if !m4 {
			return insnCost{}, fmt.Errorf("%q is an ARMv7E-M instruction the Cortex-M3 does not have", cur.Op)
		}
		return insnCost{seq: one}, nil
	case "sdiv", "udiv":
		return insnCost{seq: Cost{2, 7, 12}}, nil // early termination
	case "ldr", "ldrb", "ldrh", "ldrsb", "ldrsh", "ldrt", "str", "strb", "strh", "strt":
		c := fixed(2)
		// "Neighboring load and store single instructions can pipeline
		// their address and data phases", unless the address needs the
		// register the previous load is still loading.
		if prev != nil {
			if pb, err := baseMnemonic(prev.Op); err == nil && isSingleLoad(pb) {
				dep := false
				if pops := operands(prev.Args); len(pops) > 0 {
					dep = slices.Contains(addressRegs(cur.Args), pops[0])
				}
				if !dep {
					c = one
				}
			}
		}
		if isSingleLoad(b) && toPC {
			return branch(c, refill, true), nil // "LDR PC: 2 + P"
		}
		return insnCost{seq: c}, nil
	case "ldrex", "strex":
		return insnCost{seq: fixed(2)}, nil
	case "ldrd", "strd":
		return insnCost{seq: fixed(3)}, nil // 1 + N, N = 2
	case "ldm", "ldmia", "ldmdb", "ldmfd", "pop":
		n, pc := regList(cur.Args)
		c := fixed(float64(1 + n))
		if pc {
			return branch(c, refill, true), nil // "1 + N + P"
		}
		return insnCost{seq: c}, nil
	case "stm", "stmia", "stmdb", "stmea", "push":
		n, _ := regList(cur.Args)
		return insnCost{seq: fixed(float64(1 + n))}, nil
	case "b":
		return branch(one, refill, !conditional(cur.Op, b)), nil // "1 or 1 + P"
	case "bl", "bx", "blx":
		return branch(one, refill, !conditional(cur.Op, b)), nil // "1 + P"
	case "cbz", "cbnz":
		return branch(one, refill, false), nil
	case "tbb", "tbh":
		return branch(fixed(2), refill, true), nil // "2 + P"
	case "dmb", "dsb", "isb":
		return insnCost{seq: Cost{1, 1, 4}}, nil // "1 + B"
	}
	return insnCost{}, fmt.Errorf("no Cortex-M cycle rule for the instruction %q", cur.Op)
}

// costM0 is the Cortex-M0 table: no pipelining of loads, a taken branch
// refills in two cycles.
func costM0(prev, cur *Insn) (insnCost, error) {
	b, err := baseMnemonic(cur.Op)
	if err != nil {
		return insnCost{}, err
	}
	ops := operands(cur.Args)
	toPC := len(ops) > 0 && ops[0] == "pc"
	switch b {
	case "adc", "add", "adr", "and", "asr", "bic", "cmn", "cmp", "eor", "lsl", "lsr", "mov", "mvn", "neg", "orr", "ror",
		"rsb", "sbc", "sub", "tst", "rev", "rev16", "revsh", "sxtb", "sxth", "uxtb", "uxth", "nop", "cpsid", "cpsie", "sev", "yield":
		if toPC {
			return insnCost{seq: fixed(3), taken: fixed(3), branch: true, always: true}, nil // "MOV PC, Rm: 3"
		}
		return insnCost{seq: fixed(1)}, nil
	case "mul":
		return insnCost{seq: Cost{1, 1, 32}}, nil // "1 or 32"
	case "ldr", "ldrb", "ldrh", "ldrsb", "ldrsh", "str", "strb", "strh":
		return insnCost{seq: fixed(2)}, nil
	case "ldm", "ldmia", "ldmfd", "stm", "stmia", "stmea", "push":
		n, _ := regList(cur.Args)
		return insnCost{seq: fixed(float64(1 + n))}, nil
	case "pop":
		n, pc := regList(cur.Args)
		if pc {
			c := fixed(float64(3 + n)) // "POP and return: 4 + N", N the low registers
			return insnCost{seq: c, taken: c, branch: true, always: true}, nil
		}
		return insnCost{seq: fixed(float64(1 + n))}, nil
	case "b":
		if conditional(cur.Op, b) {
			return insnCost{seq: fixed(1), taken: fixed(3), branch: true}, nil // "1 or 3"
		}
		return insnCost{seq: fixed(3), taken: fixed(3), branch: true, always: true}, nil
	case "bl":
		return insnCost{seq: fixed(4), taken: fixed(4), branch: true, always: true}, nil
	case "bx", "blx":
		return insnCost{seq: fixed(3), taken: fixed(3), branch: true, always: true}, nil
	case "mrs", "msr", "dmb", "dsb", "isb":
		return insnCost{seq: fixed(4)}, nil
	}
	return insnCost{}, fmt.Errorf("no Cortex-M0 cycle rule for the instruction %q", cur.Op)
}

// Estimate is a window's estimated cycles and what they came from.
type Estimate struct {
	Cycles       Cost
	Instructions uint64
	Taken        uint64 // taken branches
}

func (e Estimate) sub(f Estimate) Estimate {
	return Estimate{Cycles: e.Cycles.sub(f.Cycles), Instructions: e.Instructions - f.Instructions, Taken: e.Taken - f.Taken}
}

// Estimate applies rule r to a window's counts over the disassembly d.
// Instructions are paired (for load pipelining and IT folding) only within
// a block; the last instruction of a block that branches costs its taken
// price as often as the next block did not follow it in memory.
func (r *cycleRule) Estimate(d *Disassembly, w *Window) (Estimate, error) {
	var e Estimate
	costs := map[uint64]insnCost{} // by address, memoised per previous instruction's address
	for _, blk := range w.Blocks {
		i, ok := d.at[blk.Start]
		if !ok {
			return e, fmt.Errorf("the profiler counted a block at %#x, where the disassembly has no instruction", blk.Start)
		}
		if i+blk.Insns > len(d.insns) {
			return e, fmt.Errorf("the block at %#x runs past the disassembly", blk.Start)
		}
		count := float64(blk.Count)
		for k := 0; k < blk.Insns; k++ {
			cur := &d.insns[i+k]
			var prev *Insn
			if k > 0 {
				prev = &d.insns[i+k-1]
				if prev.Addr+uint64(prev.Size) != cur.Addr {
					return e, fmt.Errorf("the block at %#x is not contiguous in the disassembly at %#x", blk.Start, cur.Addr)
				}
			}
			key := cur.Addr<<1 | uint64(min(k, 1))
			c, ok := costs[key]
			if !ok {
				var err error
				if c, err = r.cost(prev, cur); err != nil {
					return e, fmt.Errorf("at %#x: %w", cur.Addr, err)
				}
				costs[key] = c
			}
			last := k == blk.Insns-1
			switch {
			case c.branch && (c.always || !last):
				// an unconditional branch always pays for the refill; a
				// conditional one that is not a block's last did not
				// branch (the block went on)
				if c.always {
					e.Cycles = e.Cycles.add(c.taken, count)
					e.Taken += blk.Count
				} else {
					e.Cycles = e.Cycles.add(c.seq, count)
				}
			case c.branch:
				taken := float64(blk.Taken)
				e.Cycles = e.Cycles.add(c.taken, taken).add(c.seq, count-taken)
				e.Taken += blk.Taken
			default:
				e.Cycles = e.Cycles.add(c.seq, count)
			}
		}
		e.Instructions += uint64(blk.Insns) * blk.Count
	}
	return e, nil
}

// ruleSummary names a rule's source and assumptions for a metric's method.
func (r *cycleRule) summary(name string) string {
	return fmt.Sprintf("%s rule: %s; %s", name, r.Source, r.Assumes)
}
