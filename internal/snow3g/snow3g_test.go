package snow3g

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math/bits"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The test data is ETSI/SAGE, "Specification of the 3GPP Confidentiality
// and Integrity Algorithms UEA2 & UIA2, Document 3: Implementors' Test
// Data", version 1.1: §3.3–3.6 (the SNOW 3G generator), §4.3–4.7 (UEA2)
// and §5.3–5.8 (UIA2). Hex strings are printed as there, with spaces
// between words.

// unhex decodes a hex string, ignoring white space.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatalf("bad hex in test data: %v", err)
	}
	return b
}

func words(t testing.TB, s string) []uint32 {
	b := unhex(t, s)
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.BigEndian.Uint32(b[4*i:])
	}
	return w
}

func words4(t testing.TB, s string) [4]uint32 { return [4]uint32(words(t, s)) }

// TestTables compares the S-boxes computed from their definitions with the
// values Document 2 §3 prints (the first and last rows of SR, which is the
// Rijndael S-box of FIPS 197 Figure 7, and the first two rows of SQ).
func TestTables(t *testing.T) {
	for _, tc := range []struct {
		name  string
		box   func(byte) byte
		first byte
		want  string
	}{
		{"SR", sboxSR, 0x00, "63 7c 77 7b f2 6b 6f c5 30 01 67 2b fe d7 ab 76"},
		{"SR", sboxSR, 0xf0, "8c a1 89 0d bf e6 42 68 41 99 2d 0f b0 54 bb 16"},
		{"SQ", sboxSQ, 0x00, "25 24 73 67 d7 ae 5c 30 a4 ee 6e cb 7d b5 82 db"},
		{"SQ", sboxSQ, 0x10, "e4 8e 48 49 4f 5d 6a 78 70 88 e8 5f 5e 84 65 e2"},
	} {
		want := unhex(t, tc.want)
		for i, w := range want {
			if got := tc.box(tc.first + byte(i)); got != w {
				t.Errorf("%s(%#02x) = %#02x, want %#02x", tc.name, tc.first+byte(i), got, w)
			}
		}
	}
	// Both S-boxes are permutations.
	var seenR, seenQ [256]bool
	for x := range 256 {
		seenR[sboxSR(byte(x))] = true
		seenQ[sboxSQ(byte(x))] = true
	}
	for x := range 256 {
		if !seenR[x] || !seenQ[x] {
			t.Fatalf("value %#02x missing from SR or SQ: not a permutation", x)
		}
	}
	// S1(0) and S2(0), which the first FSM clock of every test set shows.
	if s1Box(0) != 0x63636363 || s2Box(0) != 0x25252525 {
		t.Errorf("S1(0) = %08x, S2(0) = %08x; want 63636363, 25252525", s1Box(0), s2Box(0))
	}
}

// generatorSets are Document 3 §3.3–3.6: key words k0..k3 and IV words
// IV0..IV3 in printed order, the LFSR s0..s15 and FSM R1..R3 after the
// initialisation, and keystream words z_t.
var generatorSets = []struct {
	section   string
	key, iv   string
	lfsr, fsm string // "" where the document prints none
	z         map[int]string
}{
	{
		section: "3.3", key: "2BD6459F 82C5B300 952C4910 4881FF48", iv: "EA024714 AD5C4D84 DF1F9B25 1C0BF45F",
		lfsr: `8F1215A6 E003A052 9241C929 68D7BF8C 16BF4C2A 8DEF9D70 32381704 11DD346A
		       E18B81EA 77EBD4FE 57ED9505 0C33C0EF 1A037B59 97591E82 A91CCB44 7B48E04F`,
		fsm: "61DA9249 427DF38C 0FB6B101",
		z:   map[int]string{1: "ABEE9704", 2: "7AC31373"},
	},
	{
		section: "3.4", key: "8CE33E2C C3C0B5FC 1F3DE8A6 DC66B1F3", iv: "D3C5D592 327FB11C DE551988 CEB2F9B7",
		lfsr: `04D6A929 942E1440 82ABD3FE 5832E9F4 5F9702A0 08712C81 644CC9B9 DBF6DE13
		       BAA5B1D0 92E9DD53 A2E2FA6D CE6965AA 02C0CD4E 6E6D984F 114A90E7 5279F8DA`,
		fsm: "65130120 A14C7DBD B68B551A",
		z:   map[int]string{1: "EFF8A342", 2: "F751480F"},
	},
	{
		section: "3.5", key: "4035C668 0AF8C6D1 A8FF8667 B1714013", iv: "62A54098 1BA6F9B7 4592B0E7 8690F71B",
		lfsr: `FEAFBAD8 1B11050A 23708014 AC8494DB ED97D431 DBBB59B3 6CD30005 7EC36405
		       B20F02AC EB407735 50E41A0E FFA8ABC1 EB4800A7 D4E6749D D1C452FE A92A3153`,
		fsm: "6599AA50 5EA9188B F41889FC",
		z:   map[int]string{1: "A8C874A9", 2: "7AE7C4F8"},
	},
	{
		// Clocked far enough to use every entry of the tables.
		section: "3.6", key: "0DED7263 109CF92E 3352255A 140E0F76", iv: "6B68079A 41A7C4C9 1BEFD79F 7FDCC233",
		z: map[int]string{1: "D712C05C", 2: "A937C2A6", 3: "EB7EAAE3", 2500: "9C0DB3AA"},
	},
}

func TestGeneratorTestSets(t *testing.T) {
	for _, ts := range generatorSets {
		t.Run("§"+ts.section, func(t *testing.T) {
			k, iv := words4(t, ts.key), words4(t, ts.iv)
			if ts.lfsr != "" {
				// The state at the end of the 32 initialisation clocks,
				// before the discarded keystream-mode clock.
				var c Cipher
				c.initMode(k, iv)
				var lfsr [16]uint32
				for i := range lfsr {
					lfsr[i] = c.s(i)
				}
				if want := [16]uint32(words(t, ts.lfsr)); lfsr != want {
					t.Errorf("LFSR after initialisation = %08x, want %08x", lfsr, want)
				}
				if got, want := [3]uint32{c.r1, c.r2, c.r3}, [3]uint32(words(t, ts.fsm)); got != want {
					t.Errorf("FSM after initialisation = %08x, want %08x", got, want)
				}
			}
			c := New(k, iv)
			last := 0
			for n := range ts.z {
				last = max(last, n)
			}
			for n := 1; n <= last; n++ {
				z := c.Word()
				if want, ok := ts.z[n]; ok && z != words(t, want)[0] {
					t.Errorf("z%d = %08X, want %s", n, z, want)
				}
			}
		})
	}
}

// f8Sets are UEA2 Test Sets 1–5, Document 3 §4.3–4.7 (3GPP TS 35.217
// likewise; TS 33.401 reuses them for 128-EEA1). Plaintext and ciphertext
// end in zero bits past LENGTH.
var f8Sets = []struct {
	section         string
	ck              string
	count           uint32
	bearer, dir     uint8
	length          int
	plain, ciphered string
}{
	{
		"4.3", "2BD6459F82C5B300952C49104881FF48", 0x72A4F20F, 0x0C, 1, 798,
		`7EC61272 743BF161 4726446A 6C38CED1 66F6CA76 EB543004 4286346C EF130F92
		 922B0345 0D3A9975 E5BD2EA0 EB55AD8E 1B199E3E C4316020 E9A1B285 E7627953
		 59B7BDFD 39BEF4B2 484583D5 AFE082AE E638BF5F D5A60619 3901A08F 4AB41AAB
		 9B134880`,
		`8CEBA629 43DCED3A 0990B06E A1B0A2C4 FB3CEDC7 1B369F42 BA64C1EB 6665E72A
		 A1C9BB0D EAA20FE8 6058B8BA EE2C2E7F 0BECCE48 B52932A5 3C9D5F93 1A3A7C53
		 2259AF43 25E2A65E 3084AD5F 6A513B7B DDC1B65F 0AA0D97A 053DB55A 88C4C4F9
		 605E4140`,
	},
	{
		"4.4", "EFA8B2229E720C2A7C36EA55E9605695", 0xE28BCF7B, 0x18, 0, 510,
		`10111231 E060253A 43FD3F57 E37607AB 2827B599 B6B1BBDA 37A8ABCC 5A8C550D
		 1BFB2F49 4624FB50 367FA36C E3BC68F1 1CF93B15 10376B02 130F812A 9FA169D8`,
		`E0DA15CA 8E2554F5 E56C9468 DC6C7C12 9C568AA5 032317E0 4E072964 6CABEFA6
		 89864C41 0F24F919 E61E3DFD FAD77E56 0DB0A9CD 36C34AE4 181490B2 9F5FA2FC`,
	},
	{
		"4.5", "5ACB1D644C0D51204EA5F1451010D852", 0xFA556B26, 0x03, 1, 120,
		"AD9C441F 890B38C4 57A49D42 1407E8",
		"BA0F3130 0334C56B 52A7497C BAC046",
	},
	{
		"4.6", "D3C5D592327FB11C4035C6680AF8C6D1", 0x398A59B4, 0x05, 1, 253,
		"981BA682 4C1BFB1A B4854720 29B71D80 8CE33E2C C3C0B5FC 1F3DE8A6 DC66B1F0",
		"989B719C DC33CEB7 CF276A52 827CEF94 A56C40C0 AB9D81F7 A2A9BAC6 0E11C4B0",
	},
	{
		"4.7", "6090EAE04C83706EECBF652BE8E36566", 0x72A4F20F, 0x09, 0, 837,
		`40981BA6 824C1BFB 4286B299 783DAF44 2C099F7A B0F58D5C 8E46B104 F08F01B4
		 1AB48547 2029B71D 36BD1A3D 90DC3A41 B46D5167 2AC4C966 3A2BE063 DA4BC8D2
		 808CE33E 2CCCBFC6 34E1B259 060876A0 FBB5A437 EBCC8D31 C19E4454 318745E3
		 98764598 7A986F2C B0`,
		`5892BBA8 8BBBCAAE AE769AA0 6B683D3A 17CC04A3 69881697 435E44FE D5FF9AF5
		 7B9E890D 4D5C6470 9885D48A E40690EC 043BAAE9 705796E4 A9FF5A4B 8D8B36D7
		 F3FE57CC 6CFD6CD0 05CD3852 A85E94CE 6BCD90D0 D07839CE 09733544 CA8E3508
		 43248550 922AC128 18`,
	},
}

func TestF8TestSets(t *testing.T) {
	for _, ts := range f8Sets {
		t.Run("§"+ts.section, func(t *testing.T) {
			ck, plain, want := unhex(t, ts.ck), unhex(t, ts.plain), unhex(t, ts.ciphered)
			got := bytes.Clone(plain)
			if err := F8(ck, ts.count, ts.bearer, ts.dir, got, ts.length); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("f8 encrypt = %x\nwant       %x", got, want)
			}
			if err := F8(ck, ts.count, ts.bearer, ts.dir, got, ts.length); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, plain) {
				t.Errorf("f8 decrypt = %x\nwant       %x", got, plain)
			}
		})
	}
}

// f9Sets are UIA2 Test Sets 1–6, Document 3 §5.3–5.8, with the keystream
// words z1..z5 each prints. Set 6's 16448-bit message is in testdata.
var f9Sets = []struct {
	section string
	ik      string
	count   uint32
	fresh   uint32
	dir     uint8
	length  uint64
	message string // hex, or "@file" under testdata
	z       string
	mac     uint32
}{
	{
		"5.3", "2BD6459F82C5B300952C49104881FF48", 0x38A6F056, 0x05D2EC49, 0, 189,
		"6B227737 296F393C 8079353E DC87E2E8 05D2EC49 A4F2D8E0",
		"DC0D5325 2A5D3190 7E1B8E28 25EC4CAA 63D9C77C", 0x2BCE1820,
	},
	{
		"5.4", "D42F682428201CAFCD9F97945E6DE7B7", 0x3EDC87E2, 0xA4F2D8E2, 1, 254,
		"B5924384 328A4AE0 0B737109 F8B6C8DD 2B4DB63D D533981C EB19AAD5 2A5B2BC0",
		"670E29DE 2AD6DE7E A42AD048 407A24AC 20F86070", 0xFC7B18BD,
	},
	{
		"5.5", "FDB9CFDF28936CC483A31869D81B8FAB", 0x36AF6144, 0x9838F03A, 1, 319,
		`5932BC0A CE2B0ABA 33D8AC18 8AC54F34 6FAD10BF 9DEE2920 B43BD0C5 3A915CB7
		 DF6CAA72 053ABFF2`,
		"B39AFB5D 53AA27D4 56A1C4AE CB68F91A BF27347B", 0x02F1FAAF,
	},
	{
		"5.6", "C736C6AAB22BFFF91E2698D2E22AD57E", 0x14793E41, 0x0397E8FD, 1, 384,
		`D0A7D463 DF9FB2B2 78833FA0 2E235AA1 72BD970C 1473E129 07FB648B 6599AAA0
		 B24A0386 65422B20 A499276A 50427009`,
		"45898E82 8F27EB98 E3230709 A00CB70A 8F75AC4B", 0x38B554C0,
	},
	{
		"5.7", "F4EBEC69E73EAF2EB2CF6AF4B3120FFD", 0x296F393C, 0x6B227737, 1, 1000,
		`10BFFF83 9E0C7165 8DBB2D17 07E14572 4F41C16F 48BF403C 3B18E38F D5D1663B
		 6F6D9001 93E3CEA8 BB4F1B4F 5BE82203 2232A78D 7D75238D 5E6DAECD 3B4322CF
		 59BC7EA8 4AB18811 B5BFB7BC 553F4FE4 4478CE28 7A148799 90D18D12 CA79D2C8
		 55149021 CD5CE8CA 0371CA04 FCCE143E 3D7CFEE9 4585B588 5CAC4606 8B`,
		"99148847 1C790308 662D90AA FAC592D2 058BEA75", 0x061745AE,
	},
	{
		"5.8", "B3120FFDB2CF6AF4E73EAF2EF4EBEC69", 0x296F393C, 0x6B227737, 1, 16448,
		"@uia2-set6-message.txt",
		"EC81B3C2 3CCF8187 61F763FF 4BA3D37A 12C6F4AC", 0x179F2FA6,
	},
}

func f9Message(t *testing.T, s string) []byte {
	name, ok := strings.CutPrefix(s, "@")
	if !ok {
		return unhex(t, s)
	}
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	return unhex(t, strings.Join(lines, " "))
}

func TestF9TestSets(t *testing.T) {
	for _, ts := range f9Sets {
		t.Run("§"+ts.section, func(t *testing.T) {
			ik, msg := unhex(t, ts.ik), f9Message(t, ts.message)
			if uint64(len(msg)) != (ts.length+7)/8 {
				t.Fatalf("message is %d bytes, LENGTH %d bits", len(msg), ts.length)
			}
			m, err := NewUIA2(ik, ts.count, ts.fresh, ts.dir)
			if err != nil {
				t.Fatal(err)
			}
			z := words(t, ts.z)
			if m.p != uint64(z[0])<<32|uint64(z[1]) || m.q != uint64(z[2])<<32|uint64(z[3]) || m.z5 != z[4] {
				t.Errorf("P, Q, z5 = %016X, %016X, %08X; want z1..z5 = %s", m.p, m.q, m.z5, ts.z)
			}
			got, err := F9(ik, ts.count, ts.fresh, ts.dir, msg, ts.length)
			if err != nil {
				t.Fatal(err)
			}
			if got != ts.mac {
				t.Errorf("MAC-I = %08X, want %08X", got, ts.mac)
			}
		})
	}
}

// TestXORKeyStreamSplits checks the cipher.Stream contract: any split of
// the data into calls gives the keystream of one call, in place or not.
func TestXORKeyStreamSplits(t *testing.T) {
	k, iv := [4]uint32{1, 2, 3, 4}, [4]uint32{5, 6, 7, 8}
	src := make([]byte, 1000)
	for i := range src {
		src[i] = byte(i * 7)
	}
	want := make([]byte, len(src))
	New(k, iv).XORKeyStream(want, src)
	// The keystream is the words z_t most significant byte first.
	c := New(k, iv)
	for i := 0; i < 8; i += 4 {
		if z := binary.BigEndian.Uint32(want[i:]) ^ binary.BigEndian.Uint32(src[i:]); z != c.Word() {
			t.Fatalf("bytes %d..%d are not z%d", i, i+3, i/4+1)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 50 {
		c := New(k, iv)
		got := bytes.Clone(src)
		for rest := got; len(rest) > 0; {
			n := min(len(rest), r.IntN(11))
			c.XORKeyStream(rest[:n], rest[:n]) // in place
			rest = rest[n:]
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("trial %d: split in-place XORKeyStream differs from one call", trial)
		}
	}
}

// TestMACWriteSplits checks the hash.Hash contract: writes in any pieces
// give F9's MAC, Sum leaves the state alone, and Reset starts again.
func TestMACWriteSplits(t *testing.T) {
	ts := f9Sets[4] // 1000 bits, a whole number of bytes
	ik, msg := unhex(t, ts.ik), unhex(t, ts.message)
	m, err := NewUIA2(ik, ts.count, ts.fresh, ts.dir)
	if err != nil {
		t.Fatal(err)
	}
	want := binary.BigEndian.AppendUint32(nil, ts.mac)
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 20 {
		m.Reset()
		for rest := msg; len(rest) > 0; {
			n := min(len(rest), r.IntN(20))
			m.Write(rest[:n])
			rest = rest[n:]
			m.Sum(nil) // must not disturb the state
		}
		if got := m.Sum(nil); !bytes.Equal(got, want) {
			t.Fatalf("trial %d: MAC-I = %x, want %x", trial, got, want)
		}
	}
	// A bit-length message through SumBits: Test Set 1, 189 bits.
	ts = f9Sets[0]
	ik, msg = unhex(t, ts.ik), unhex(t, ts.message)
	m, _ = NewUIA2(ik, ts.count, ts.fresh, ts.dir)
	m.Write(msg[:ts.length/8])
	got := m.SumBits(nil, msg[ts.length/8], int(ts.length%8))
	if want := binary.BigEndian.AppendUint32(nil, ts.mac); !bytes.Equal(got, want) {
		t.Errorf("SumBits MAC-I = %x, want %x", got, want)
	}
}

// mul64Spec is MUL64(V, P, c) exactly as Document 1 §4 defines it: the XOR
// of MUL64xPOW(V, i, c) over the set bits i of P.
func mul64Spec(v, p, c uint64) uint64 {
	var r uint64
	for i := range 64 {
		if p>>i&1 != 0 {
			r ^= v
		}
		// v becomes MUL64x(v, c) = v·X.
		if v>>63 != 0 {
			v = v<<1 ^ c
		} else {
			v <<= 1
		}
	}
	return r
}

func TestGFMulMatchesSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cases := [][2]uint64{{0, 0}, {1, 1}, {^uint64(0), ^uint64(0)}, {1 << 63, 1 << 63}, {1 << 63, 2}}
	for range 2000 {
		cases = append(cases, [2]uint64{r.Uint64(), r.Uint64()})
	}
	for _, c := range cases {
		x, y := c[0], c[1]
		if got, want := gfMul(x, y, bits.Reverse64(y)), mul64Spec(x, y, 0x1b); got != want {
			t.Fatalf("gfMul(%016x, %016x) = %016x, want %016x", x, y, got, want)
		}
	}
}

func TestBadInputs(t *testing.T) {
	key := make([]byte, 16)
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"short key", func() error { _, err := NewUEA2(key[:15], 0, 0, 0); return err }()},
		{"wide bearer", func() error { _, err := NewUEA2(key, 0, 32, 0); return err }()},
		{"bad direction", func() error { _, err := NewUEA2(key, 0, 0, 2); return err }()},
		{"long key", func() error { _, err := NewUIA2(make([]byte, 17), 0, 0, 0); return err }()},
		{"bad direction", func() error { _, err := NewUIA2(key, 0, 0, 3); return err }()},
		{"f8 length", F8(key, 0, 0, 0, make([]byte, 2), 17)},
		{"f9 length", func() error { _, err := F9(key, 0, 0, 0, make([]byte, 2), 17); return err }()},
	} {
		if tc.err == nil {
			t.Errorf("%s: accepted", tc.name)
		} else if !strings.HasPrefix(tc.err.Error(), "snow3g: ") {
			t.Errorf("%s: error %q lacks the package prefix", tc.name, tc.err)
		}
	}
}

func BenchmarkKeystream(b *testing.B) {
	for _, size := range []int{64, 1024, 8192} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			c := New([4]uint32{1, 2, 3, 4}, [4]uint32{5, 6, 7, 8})
			src, dst := make([]byte, size), make([]byte, size)
			b.SetBytes(int64(size))
			for b.Loop() {
				c.XORKeyStream(dst, src)
			}
		})
	}
}

func BenchmarkUEA2Setup(b *testing.B) {
	key := make([]byte, 16)
	for b.Loop() {
		if _, err := NewUEA2(key, 1, 2, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUIA2(b *testing.B) {
	for _, size := range []int{64, 1024, 8192} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			m, _ := NewUIA2(make([]byte, 16), 1, 2, 1)
			msg, out := make([]byte, size), make([]byte, 0, MACSize)
			b.SetBytes(int64(size))
			for b.Loop() {
				m.Reset()
				m.Write(msg)
				out = m.Sum(out[:0])
			}
		})
	}
}
