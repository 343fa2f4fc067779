package ascon

import (
	"bytes"
	"crypto/cipher"
	"encoding/hex"
	"errors"
	"testing"
)

// Compile-time check: AEAD128 is a crypto/cipher.AEAD.
var _ cipher.AEAD = (*AEAD128)(nil)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// seq returns n bytes counting up from start: the KAT file's inputs are
// prefixes of 20 21 22 ... (plaintext) and 30 31 32 ... (associated data).
func seq(start byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = start + byte(i)
	}
	return b
}

// refKATs are entries of the Ascon team's reference KAT file for
// Ascon-AEAD128: ascon-c, crypto_aead/asconaead128/LWC_AEAD_KAT_128_128.txt
// (also shipped as crypto_aead_hash/asconaeadxof128/, commit fdfca408).
// Every entry uses Key = 000102...0F and Nonce = 101112...1F; PT and AD are
// the first ptLen and adLen bytes of 2021... and 3031...; Count is
// 1 + 33·ptLen + adLen. CT is the ciphertext followed by the tag.
var refKATs = []struct {
	count, ptLen, adLen int
	ct                  string
}{
	{1, 0, 0, "4F9C278211BEC9316BF68F46EE8B2EC6"},
	{2, 0, 1, "CCCB674FE18A09A285D6AB11B35675C0"},
	{16, 0, 15, "759102A6953861627AAE1836D003A294"},
	{17, 0, 16, "E4230CDB8330EE9DC0CFD7C7B346E6DC"},
	{18, 0, 17, "BD8851CD3AF9847844839A791DD70E8C"},
	{34, 1, 0, "E8DD576ABA1CD3E6FC704DE02AEDB79588"},
	{35, 1, 1, "962B8016836C75A7D86866588CA245D886"},
	{67, 2, 0, "E8C35A12D2A396E76224F6EE5418F6465197"},
	{513, 15, 17, "BF77C71B3DE9F1C5B372EF273A08E8C1CFCFDC64BB8CAA4433E48A1E50014A"},
	{528, 15, 32, "CB34D04660A66DBFBE9C856601F5B8C79104F5675250A98B8EEADC36B8EBBE"},
	{529, 16, 0, "E8C3DEEE246CC5EAE3E872313897A2BB9EAA915C9DD3245D77048F24D46D27A7"},
	{545, 16, 16, "6373EBB28BE97C9BAC090CF399C13EF13ABFC0D209E8F4844C90814D13F32C59"},
	{562, 17, 0, "E8C3DEEE246CC5EAE3E872313897A2BB60301002539D456275DD0B0CEAB3B23844"},
	{563, 17, 1, "96107D8A29A7529A7941BDC7DF1FE3C6C7EA70D7986E7B59CD0D357239F5D25BF5"},
	{1057, 32, 0, "E8C3DEEE246CC5EAE3E872313897A2BB6089AA3E15E80307970F2D1F006654C2AAA5FA172CB9F07D07463CEFC7440BC1"},
	{1073, 32, 16, "6373EBB28BE97C9BAC090CF399C13EF14EA6C5E519E30A5C6EF44F7CEA881AB7ABEF171657D19C6C1138B7577693E439"},
	{1088, 32, 31, "4B392E5FA60E0CBBCA547DB96E3262BD8382D6C0E608E24F441AAAFC4726E5AD779233DA0AE25E0BDE856E4805896EC2"},
	{1089, 32, 32, "CB34D04660A66DBFBE9C856601F5B8AA51A499B55AC8F7FBEFBC331A613EE9CDFD191750A47F211C0A15ED28173D7CAA"},
}

func TestReferenceKATs(t *testing.T) {
	key, nonce := seq(0x00, 16), seq(0x10, 16)
	a, err := New(key)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range refKATs {
		pt, ad, want := seq(0x20, v.ptLen), seq(0x30, v.adLen), unhex(t, v.ct)
		if v.count != 1+33*v.ptLen+v.adLen {
			t.Fatalf("Count %d does not match PT %d and AD %d bytes", v.count, v.ptLen, v.adLen)
		}
		if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
			t.Errorf("Count %d: Seal = %X, want %X", v.count, got, want)
		}
		got, err := a.Open(nil, nonce, want, ad)
		if err != nil || !bytes.Equal(got, pt) {
			t.Errorf("Count %d: Open = %X, %v; want %X", v.count, got, err, pt)
		}
	}
}

// TestWycheproofVectors checks vectors with other keys and nonces, from
// Wycheproof testvectors_v1/ascon_sp800_232_aead128_test.json (tcId noted).
func TestWycheproofVectors(t *testing.T) {
	for _, v := range []struct {
		tcID                         int
		key, nonce, ad, msg, ct, tag string
	}{
		{3, "c5d56d757ae5f2288e1eb618561840d9", "4c40c932b11d2855c361964d37fa8ebe", "", "61", "1e", "cd05e21c3ba8690c0d667cf030996b01"},
		{19, "ac47162cbff7d0038507933b4264ffb3", "129ca005ee2ac86d973b57ae085a1ad8", "",
			"6d03b5ff28059d0e6e7d0c8dc1c4daaf50", "2590846b2b193d2b3722425b6dd99f4aed", "c307f6890b47c3232e9a452a72a09f42"},
		{115, "000102030405060708090a0b0c0d0e0f", "505152535455565758595a5b5c5d5e5f", "",
			"000102030405060708090a0b0c0d0e", "2c1d5c34da2277e56503aed9d10583", "dd0897287420f4dfbc98ffb3ad4ef78d"},
	} {
		a, err := New(unhex(t, v.key))
		if err != nil {
			t.Fatal(err)
		}
		want := append(unhex(t, v.ct), unhex(t, v.tag)...)
		if got := a.Seal(nil, unhex(t, v.nonce), unhex(t, v.msg), unhex(t, v.ad)); !bytes.Equal(got, want) {
			t.Errorf("tcId %d: Seal = %x, want %x", v.tcID, got, want)
		}
	}
}

// TestOpenRejectsEveryBitFlip flips each bit of a sealed message in turn:
// no modified ciphertext or tag may open, and a failed Open returns nothing.
func TestOpenRejectsEveryBitFlip(t *testing.T) {
	a, _ := New(seq(0, 16))
	nonce, ad := seq(0x10, 16), seq(0x30, 5)
	sealed := a.Seal(nil, nonce, seq(0x20, 21), ad)
	for i := range len(sealed) * 8 {
		bad := bytes.Clone(sealed)
		bad[i/8] ^= 1 << (i % 8)
		if out, err := a.Open(nil, nonce, bad, ad); !errors.Is(err, ErrOpen) || out != nil {
			t.Fatalf("bit %d flipped: Open = %x, %v; want nil, ErrOpen", i, out, err)
		}
	}
	if _, err := a.Open(nil, nonce, sealed, seq(0x30, 4)); !errors.Is(err, ErrOpen) {
		t.Errorf("Open with other associated data = %v, want ErrOpen", err)
	}
	if _, err := a.Open(nil, nonce, sealed[:TagSize-1], ad); !errors.Is(err, ErrOpen) {
		t.Errorf("Open of a message shorter than the tag = %v, want ErrOpen", err)
	}
}

// TestRoundTripAndAliasing covers every length across the word and rate
// boundaries, sealing and opening in place (dst = input[:0]) and appending to
// a prefix, as crypto/cipher.AEAD allows.
func TestRoundTripAndAliasing(t *testing.T) {
	a, _ := New(seq(7, 16))
	nonce := seq(0x40, 16)
	for n := range 50 {
		for _, adLen := range []int{0, 7, 16, 33} {
			pt, ad := seq(byte(n), n), seq(0x30, adLen)
			want := a.Seal(nil, nonce, pt, ad)

			buf := make([]byte, n, n+TagSize)
			copy(buf, pt)
			if got := a.Seal(buf[:0], nonce, buf, ad); !bytes.Equal(got, want) {
				t.Fatalf("len %d ad %d: in-place Seal = %x, want %x", n, adLen, got, want)
			}
			got, err := a.Open(buf[:0], nonce, buf[:n+TagSize], ad)
			if err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("len %d ad %d: in-place Open = %x, %v; want %x", n, adLen, got, err, pt)
			}

			prefixed := a.Seal([]byte("hdr"), nonce, pt, ad)
			if !bytes.Equal(prefixed[3:], want) || string(prefixed[:3]) != "hdr" {
				t.Fatalf("len %d ad %d: Seal does not append to dst", n, adLen)
			}
		}
	}
}

func TestNewRejectsBadKey(t *testing.T) {
	for _, n := range []int{0, 15, 17, 32} {
		if _, err := New(make([]byte, n)); err == nil {
			t.Errorf("New accepted a %d-byte key", n)
		}
	}
}

func BenchmarkSeal1K(b *testing.B) {
	a, _ := New(seq(0, 16))
	nonce, pt := seq(0x10, 16), make([]byte, 1024)
	out := make([]byte, 0, len(pt)+TagSize)
	b.SetBytes(int64(len(pt)))
	for b.Loop() {
		out = a.Seal(out[:0], nonce, pt, nil)
	}
}
