// Package gcmsiv is AES-GCM-SIV (RFC 8452), nonce-misuse-resistant AEAD,
// as a crypto/cipher.AEAD.
//
// Written here because neither the standard library nor a reachable module
// has it. It is a straightforward reading of RFC 8452 §4-§5 with POLYVAL
// computed through GHASH as Appendix A describes, one bit at a time: correct
// and constant-time in its data flow, but unoptimised, so its timings are a
// reference point, not what a tuned implementation costs (libgcrypt's, under
// provider gcrypt, is one). Checked against RFC 8452 Appendix C.
package gcmsiv

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
)

const (
	NonceSize = 12
	TagSize   = 16
)

type aead struct {
	kgk cipher.Block // the key-generating key
	n   int          // key bytes: 16 or 32
}

// New returns AES-GCM-SIV with a 16- or 32-byte key-generating key.
func New(key []byte) (cipher.AEAD, error) {
	if len(key) != 16 && len(key) != 32 {
		return nil, fmt.Errorf("gcmsiv: key is %d bytes, want 16 or 32", len(key))
	}
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return &aead{kgk: b, n: len(key)}, nil
}

func (a *aead) NonceSize() int { return NonceSize }
func (a *aead) Overhead() int  { return TagSize }

// keys derives the per-nonce message-authentication and -encryption keys
// (§4): the first 8 bytes of AES(LE32(i) || nonce) for i = 0, 1, ...
func (a *aead) keys(nonce []byte) (auth []byte, enc cipher.Block) {
	var in, out [16]byte
	copy(in[4:], nonce)
	keys := make([]byte, 16+a.n)
	for i := 0; i < len(keys)/8; i++ {
		binary.LittleEndian.PutUint32(in[:4], uint32(i))
		a.kgk.Encrypt(out[:], in[:])
		copy(keys[8*i:], out[:8])
	}
	b, err := aes.NewCipher(keys[16:])
	if err != nil {
		panic(err) // 16 or 32 bytes by construction
	}
	return keys[:16], b
}

// u128 is a GHASH field element, most significant bit first.
type u128 struct{ hi, lo uint64 }

func load(b []byte) u128 { return u128{binary.BigEndian.Uint64(b), binary.BigEndian.Uint64(b[8:])} }

// reversed loads a POLYVAL block as the GHASH element ByteReverse(b)
// (RFC 8452 Appendix A).
func reversed(b []byte) u128 {
	var r [16]byte
	for i := range r {
		r[i] = b[15-i]
	}
	return load(r[:])
}

// mul is GHASH's field multiplication (SP 800-38D Algorithm 1).
func mul(x, y u128) u128 {
	var z u128
	v := y
	for i := 0; i < 128; i++ {
		var bit uint64
		if i < 64 {
			bit = x.hi >> (63 - i) & 1
		} else {
			bit = x.lo >> (127 - i) & 1
		}
		mask := -bit
		z.hi ^= v.hi & mask
		z.lo ^= v.lo & mask
		lsb := v.lo & 1
		v.lo = v.lo>>1 | v.hi<<63
		v.hi >>= 1
		v.hi ^= 0xe1 << 56 & -lsb
	}
	return z
}

// polyval is POLYVAL(H, blocks) = ByteReverse(GHASH(mulX_GHASH(ByteReverse(H)),
// ByteReverse(X_i)...)) over data zero-padded to whole blocks.
func polyval(h []byte, parts ...[]byte) [16]byte {
	hh := reversed(h)
	// mulX_GHASH: multiply by x, the reduction as in mul's step.
	lsb := hh.lo & 1
	hh.lo = hh.lo>>1 | hh.hi<<63
	hh.hi >>= 1
	hh.hi ^= 0xe1 << 56 & -lsb
	var s u128
	var block [16]byte
	for _, p := range parts {
		for len(p) > 0 {
			clear(block[:])
			n := copy(block[:], p)
			p = p[n:]
			x := reversed(block[:])
			s = mul(u128{s.hi ^ x.hi, s.lo ^ x.lo}, hh)
		}
	}
	var out [16]byte
	binary.BigEndian.PutUint64(out[:], s.hi)
	binary.BigEndian.PutUint64(out[8:], s.lo)
	for i := 0; i < 8; i++ {
		out[i], out[15-i] = out[15-i], out[i]
	}
	return out
}

// tag is §4's tag over the padded AAD and plaintext and the length block.
func tag(auth []byte, enc cipher.Block, nonce, pt, ad []byte) [16]byte {
	var lengths [16]byte
	binary.LittleEndian.PutUint64(lengths[:8], uint64(len(ad))*8)
	binary.LittleEndian.PutUint64(lengths[8:], uint64(len(pt))*8)
	s := polyval(auth, pad(ad), pad(pt), lengths[:])
	for i := 0; i < NonceSize; i++ {
		s[i] ^= nonce[i]
	}
	s[15] &= 0x7f
	enc.Encrypt(s[:], s[:])
	return s
}

func pad(b []byte) []byte {
	if len(b)%16 == 0 {
		return b
	}
	return append(append([]byte(nil), b...), make([]byte, 16-len(b)%16)...)
}

// ctr is §4's counter mode: the tag with its top bit set as the first
// counter block, the first 32 bits incremented little-endian.
func ctr(enc cipher.Block, t [16]byte, dst, src []byte) {
	block := t
	block[15] |= 0x80
	var ks [16]byte
	for len(src) > 0 {
		enc.Encrypt(ks[:], block[:])
		n := subtle.XORBytes(dst, src, ks[:])
		dst, src = dst[n:], src[n:]
		binary.LittleEndian.PutUint32(block[:4], binary.LittleEndian.Uint32(block[:4])+1)
	}
}

func (a *aead) Seal(dst, nonce, pt, ad []byte) []byte {
	if len(nonce) != NonceSize {
		panic("gcmsiv: incorrect nonce length")
	}
	auth, enc := a.keys(nonce)
	t := tag(auth, enc, nonce, pt, ad)
	out := make([]byte, len(pt)+TagSize)
	ctr(enc, t, out, pt)
	copy(out[len(pt):], t[:])
	return append(dst, out...)
}

var errOpen = errors.New("gcmsiv: message authentication failed")

func (a *aead) Open(dst, nonce, ct, ad []byte) ([]byte, error) {
	if len(nonce) != NonceSize {
		panic("gcmsiv: incorrect nonce length")
	}
	if len(ct) < TagSize {
		return nil, errOpen
	}
	auth, enc := a.keys(nonce)
	var t [16]byte
	copy(t[:], ct[len(ct)-TagSize:])
	pt := make([]byte, len(ct)-TagSize)
	ctr(enc, t, pt, ct[:len(ct)-TagSize])
	want := tag(auth, enc, nonce, pt, ad)
	if subtle.ConstantTimeCompare(want[:], t[:]) != 1 {
		clear(pt)
		return nil, errOpen
	}
	return append(dst, pt...), nil
}
