package tiger

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"strconv"
	"strings"
	"testing"
)

// nessieSet1 are the NESSIE-format "Set 1" vectors the authors publish on
// the Tiger page: test-vectors-nessie-format.dat (Tiger) and
// tiger2-test-vectors-nessie-format.dat (Tiger2), digests printed as bytes.
var nessieSet1 = []struct {
	in            string
	repeat        int
	tiger, tiger2 string
}{
	{"", 1, "3293ac630c13f0245f92bbb1766e16167a4e58492dde73f3", "4441be75f6018773c206c22745374b924aa8313fef919f41"},
	{"a", 1, "77befbef2e7ef8ab2ec8f93bf587a7fc613e247f5f247809", "67e6ae8e9e968999f70a23e72aeaa9251cbc7c78a7916636"},
	{"abc", 1, "2aab1484e8c158f2bfb8c5ff41b57a525129131c957b5f93", "f68d7bc5af4b43a06e048d7829560d4a9415658bb0b1f3bf"},
	{"message digest", 1, "d981f8cb78201a950dcf3048751e441c517fca1aa55a29f6", "e29419a1b5fa259de8005e7de75078ea81a542ef2552462d"},
	{"abcdefghijklmnopqrstuvwxyz", 1, "1714a472eee57d30040412bfcc55032a0b11602ff37beee9", "f5b6b6a78c405c8547e91cd8624cb8be83fc804a474488fd"},
	{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1, "0f7bf9a19b9c58f2b7610df7e84f0ac3a71c631e7b53f78e", "a6737f3997e8fbb63d20d2df88f86376b5fe2d5ce36646a9"},
	{"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 1, "8dcea680a17583ee502ba38a3c368651890ffbccdc49a8cc", "ea9ab6228cee7b51b77544fca6066c8cbb5bbae6319505cd"},
	{"1234567890", 8, "1c14795529fd9f207a958f84c52f11e887fa0cabdfd91bfd", "d85278115329ebaa0eec85ecdc5396fda8aa3a5820942fff"},
	{"a", 1000000, "6db0e2729cbead93d715c6a7d36302e9b3cee0d2bc314b41", "e068281f060f551628cc5715b9d0226796914d45f7717cf4"},
}

// testTiger are the results of the authors' reference program testtiger,
// which prints the three state words a, b, c as 64-bit hex numbers (so each
// word's bytes appear reversed relative to the digest bytes). They cover the
// 64-byte messages (one block of data, padding in a second block) and
// messages of two and more blocks.
var testTiger = []struct{ in, words string }{
	{"", "24F0130C63AC9332 16166E76B1BB925F F373DE2D49584E7A"},
	{"abc", "F258C1E88414AB2A 527AB541FFC5B8BF 935F7B951C132951"},
	{"Tiger", "9F00F599072300DD 276ABB38C8EB6DEC 37790C116F9D2BDF"},
	{"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-",
		"87FB2A9083851CF7 470D2CF810E6DF9E B586445034A5A386"},
	{"ABCDEFGHIJKLMNOPQRSTUVWXYZ=abcdefghijklmnopqrstuvwxyz+0123456789",
		"467DB80863EBCE48 8DF1CD1261655DE9 57896565975F9197"},
	{"Tiger - A Fast New Hash Function, by Ross Anderson and Eli Biham",
		"0C410A042968868A 1671DA5A3FD29A72 5EC1E457D3CDB303"},
	{"Tiger - A Fast New Hash Function, by Ross Anderson and Eli Biham, proceedings of Fast Software Encryption 3, Cambridge.",
		"EBF591D5AFA655CE 7F22894FF87F54AC 89C811B6B0DA3193"},
	{"Tiger - A Fast New Hash Function, by Ross Anderson and Eli Biham, proceedings of Fast Software Encryption 3, Cambridge, 1996.",
		"3D9AEB03D1BD1A63 57B2774DFD6D5B24 DD68151D503974FC"},
	{"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-",
		"00B83EB4E53440C5 76AC6AAEE0A74858 25FD15E70A59FFE4"},
}

// wordsToDigest turns testtiger's printed words into digest bytes.
func wordsToDigest(t *testing.T, words string) []byte {
	var out []byte
	for _, w := range strings.Fields(words) {
		v, err := strconv.ParseUint(w, 16, 64)
		if err != nil {
			t.Fatalf("bad word %q: %v", w, err)
		}
		out = binary.LittleEndian.AppendUint64(out, v)
	}
	return out
}

func digestOf(h hash.Hash, msg []byte) []byte {
	h.Write(msg)
	return h.Sum(nil)
}

func TestNESSIEVectors(t *testing.T) {
	for _, v := range nessieSet1 {
		msg := []byte(strings.Repeat(v.in, v.repeat))
		name := v.in
		if v.repeat > 1 {
			name = strconv.Itoa(v.repeat) + "×" + v.in
		}
		if got := hex.EncodeToString(digestOf(New(), msg)); got != v.tiger {
			t.Errorf("Tiger(%.20q) = %s, want %s", name, got, v.tiger)
		}
		if got := hex.EncodeToString(digestOf(New2(), msg)); got != v.tiger2 {
			t.Errorf("Tiger2(%.20q) = %s, want %s", name, got, v.tiger2)
		}
	}
}

func TestReferenceProgramVectors(t *testing.T) {
	for _, v := range testTiger {
		want := wordsToDigest(t, v.words)
		if got := digestOf(New(), []byte(v.in)); !bytes.Equal(got, want) {
			t.Errorf("Tiger(%.20q…) = %x, want %x", v.in, got, want)
		}
		if got := Sum([]byte(v.in)); !bytes.Equal(got[:], want) {
			t.Errorf("Sum(%.20q…) = %x, want %x", v.in, got, want)
		}
	}
}

// TestSboxes checks generated S-box entries against the table printed in
// the authors' reference code (sboxes.c): the first and last entries of t1,
// the first of t2 and the last of t4. The vectors above check every entry
// that hashing them touches.
func TestSboxes(t *testing.T) {
	s := tables()
	for _, c := range []struct {
		box, i int
		want   uint64
	}{
		{0, 0, 0x02AAB17CF7E90C5E},
		{0, 1, 0xAC424B03E243A8EC},
		{0, 255, 0xEBC18760ED78A77A},
		{1, 0, 0xE6A6BE5A05A12138},
		{3, 255, 0xC3A0396F7363A51F},
	} {
		if got := s[c.box][c.i]; got != c.want {
			t.Errorf("t%d[%d] = %#016x, want %#016x", c.box+1, c.i, got, c.want)
		}
	}
}

// TestWriteSplits checks that buffering gives the one-shot answer for every
// split of a three-block message, and that Sum leaves the state alone.
func TestWriteSplits(t *testing.T) {
	msg := []byte(strings.Repeat("0123456789abcdef", 12)) // 192 bytes
	want := digestOf(New(), msg)
	for split := range len(msg) + 1 {
		h := New()
		h.Write(msg[:split])
		h.Sum(nil) // must not disturb the state
		h.Write(msg[split:])
		if got := h.Sum(nil); !bytes.Equal(got, want) {
			t.Fatalf("split at %d: %x, want %x", split, got, want)
		}
	}
	h := New()
	h.Write(msg)
	h.Reset()
	if got, want := h.Sum(nil), digestOf(New(), nil); !bytes.Equal(got, want) {
		t.Errorf("after Reset: %x, want the empty digest %x", got, want)
	}
}

func TestSizes(t *testing.T) {
	for _, h := range []hash.Hash{New(), New2()} {
		if h.Size() != Size || h.BlockSize() != BlockSize || len(h.Sum(nil)) != Size {
			t.Errorf("Size %d, BlockSize %d, len(Sum) %d; want %d, %d, %d",
				h.Size(), h.BlockSize(), len(h.Sum(nil)), Size, BlockSize, Size)
		}
	}
}

func BenchmarkTiger(b *testing.B) {
	for _, size := range []int{64, 1024, 8192} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			msg := make([]byte, size)
			h := New()
			out := make([]byte, 0, Size)
			b.SetBytes(int64(size))
			for b.Loop() {
				h.Reset()
				h.Write(msg)
				out = h.Sum(out[:0])
			}
		})
	}
}
