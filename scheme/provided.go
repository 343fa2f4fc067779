package scheme

import (
	"bytes"
	"crypto"
	"crypto/cipher"
	"errors"
	"fmt"
	"hash"
	"slices"
	"strings"
)

// Schemes of C-library providers (scheme/provider/...). A provider does not
// describe or verify its schemes itself: it offers, for an algorithm the
// registry already has, the library's calls behind one of the Impl types
// below, and Provide builds the scheme from them. The scheme takes its Info
// from the Go implementation of the same name (only the provider differs)
// and its known-answer test from the same vectors, run through the same
// library calls that are timed. So a C library's SHA-256 passes exactly the
// gate the Go one does, before it is timed.
//
// Timing across cgo: a Job runs the library call n times inside C, so one
// cgo crossing is shared by n calls and a 16-byte AES-GCM seal measures the
// library, not the crossing. Inputs are prepared (copied into C memory,
// keys imported, contexts made) when the Job is made, outside the timed
// region, as Operation.Prepare requires.

// Job is one library operation prepared with its inputs.
type Job interface {
	// Run calls the library n times; an error means a call failed (for a
	// verification or an open: the input was rejected).
	Run(n int) error
	// Output returns the last call's output (a digest, a ciphertext, a
	// signature, a shared secret), valid until the next Run.
	Output() []byte
}

// Raw key encodings the Impl types exchange, one per key type, so a key
// made by one provider can be used by another and by the vectors:
//   - Ed25519, Ed448: the RFC 8032 secret key (the 32- or 57-byte seed) and
//     the encoded public key.
//   - ECDSA and ECDH on the NIST curves: the private scalar as a big-endian
//     integer of the field's length, the public key as a SEC 1 uncompressed
//     point (04 || x || y).
//   - X25519, X448: the RFC 7748 scalar and u-coordinate.
//
// ECDSA signatures are DER (SEQUENCE of two INTEGERs, RFC 3279 §2.2.3).

// HashImpl is a library's digest.
type HashImpl struct {
	// Digest prepares hashing msg: each call is init, update, final.
	Digest func(msg []byte) (Job, error)
}

// MACImpl is a library's MAC.
type MACImpl struct {
	// MAC prepares the tag of msg under key: each call is keyed init
	// (from a prepared key where the library allows), update, final.
	MAC func(key, msg []byte) (Job, error)
}

// AEADImpl is a library's AEAD. Nonces may have any length the algorithm
// defines (the CCM vectors use 13 bytes).
type AEADImpl struct {
	// Seal prepares sealing pt with ad under key and nonce; the output is
	// the ciphertext followed by the tag.
	Seal func(key, nonce, ad, pt []byte) (Job, error)
	// Open prepares opening ct (ciphertext || tag); Run fails if the tag
	// does not verify.
	Open func(key, nonce, ad, ct []byte) (Job, error)
}

// BlockImpl is a library's block cipher in the modes it offers, each with
// the library's own mode code.
type BlockImpl struct {
	Modes []string // of "ecb", "cbc", "ofb", "ctr"
	// Crypt prepares encrypting (or decrypting) in under key from iv in
	// mode; each call restarts from iv.
	Crypt func(mode string, decrypt bool, key, iv, in []byte) (Job, error)
}

// StreamImpl is a library's stream cipher.
type StreamImpl struct {
	// XOR prepares encrypting in under key and iv; each call starts at
	// the beginning of the keystream.
	XOR func(key, iv, in []byte) (Job, error)
}

// SignImpl is a library's signature scheme over whole messages (the
// library hashes as the algorithm prescribes).
type SignImpl struct {
	GenerateKey func() (pub, priv []byte, err error)
	// Keygen prepares generating key pairs (the timed keygen).
	Keygen func() (Job, error)
	// Public computes the public key of a raw private key.
	Public func(priv []byte) ([]byte, error)
	Sign   func(priv, msg []byte) (Job, error)
	// Verify prepares verifying sig; Run fails if it does not verify.
	Verify func(pub, msg, sig []byte) (Job, error)
}

// AgreementImpl is a library's Diffie-Hellman.
type AgreementImpl struct {
	GenerateKey func() (pub, priv []byte, err error)
	Keygen      func() (Job, error)
	Public      func(priv []byte) ([]byte, error)
	// Derive prepares computing the shared secret of priv and peer,
	// validating peer as the library does on every call.
	Derive func(priv, peer []byte) (Job, error)
}

// Provide builds provider p's scheme for the registered algorithm name
// from impl (a HashImpl, MACImpl, AEADImpl, BlockImpl, SignImpl or
// AgreementImpl matching the algorithm's family). It fails if the registry
// has no Go implementation of name to take the description and vectors
// from, or if impl does not fit it.
func Provide(name string, p Provider, impl any) (Scheme, error) {
	var ref Scheme
	for _, s := range registry {
		if s.Info().Name == name && providerKind(s.Info().Provider) == KindGo {
			ref = s
			break
		}
	}
	if ref == nil {
		return nil, fmt.Errorf("scheme: %s: the registry has no Go implementation of %q to take vectors from", p, name)
	}
	info := *ref.Info()
	info.Provider = p
	info.Aliases = slices.Clone(info.Aliases)
	info.Params = slices.Clone(info.Params)
	base := providedBase{info: info}
	mismatch := fmt.Errorf("scheme: %s: %s is a %s scheme (%T), not %T", p, name, info.Family, ref, impl)
	switch r := ref.(type) {
	case *hashScheme:
		i, ok := impl.(HashImpl)
		if !ok {
			return nil, mismatch
		}
		return &providedHash{providedBase: base, impl: i, vectors: r.vectors}, nil
	case *macScheme:
		i, ok := impl.(MACImpl)
		if !ok {
			return nil, mismatch
		}
		return &providedMAC{providedBase: base, impl: i, vectors: r.vectors}, nil
	case *aeadScheme:
		i, ok := impl.(AEADImpl)
		if !ok {
			return nil, mismatch
		}
		return &providedAEAD{providedBase: base, impl: i, vectors: r.vectors}, nil
	case *blockScheme:
		i, ok := impl.(BlockImpl)
		if !ok {
			return nil, mismatch
		}
		for _, m := range i.Modes {
			if !slices.Contains(blockModes, blockMode(m)) {
				return nil, fmt.Errorf("scheme: %s: %s: unknown mode %q", p, name, m)
			}
		}
		return &providedBlock{providedBase: base, impl: i, vectors: r.vectors}, nil
	case *streamScheme:
		i, ok := impl.(StreamImpl)
		if !ok {
			return nil, mismatch
		}
		return &providedStream{providedBase: base, impl: i, vectors: r.vectors}, nil
	case *signScheme:
		i, ok := impl.(SignImpl)
		if !ok {
			return nil, mismatch
		}
		s := &providedSign{providedBase: base, impl: i, vectors: r.vectors, keygen: r.keygen}
		switch kt := info.Param("key_type"); {
		case kt == "Ed25519" || kt == "Ed448":
			s.kind = signEdDSA
			s.info.Sizes.PrivateKey = map[string]int{"Ed25519": 32, "Ed448": 57}[kt]
			s.setParam("key_encoding", "RFC 8032 (private: the seed)")
		case strings.HasPrefix(kt, "ECDSA "):
			s.kind = signECDSA
			s.setParam("key_encoding", "SEC 1 uncompressed point; fixed-length scalar")
		default:
			return nil, fmt.Errorf("scheme: %s: %s: providers can offer EdDSA and ECDSA signatures, not %s", p, name, kt)
		}
		return s, nil
	case *kexAgreementScheme:
		i, ok := impl.(AgreementImpl)
		if !ok {
			return nil, mismatch
		}
		return &providedAgreement{providedBase: base, impl: i, vectors: r.vectors}, nil
	}
	return nil, fmt.Errorf("scheme: %s: %s: providers cannot offer %s schemes yet", p, name, info.Family)
}

type providedBase struct{ info Info }

func (b *providedBase) Info() *Info { return &b.info }

func (b *providedBase) setParam(key, value string) {
	for i := range b.info.Params {
		if b.info.Params[i].Key == key {
			b.info.Params[i].Value = value
			return
		}
	}
	b.info.Params = append(b.info.Params, Param{key, value})
}

// runOnce runs a freshly prepared job once and returns a copy of its output.
func runOnce(j Job, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	if err := j.Run(1); err != nil {
		return nil, err
	}
	return bytes.Clone(j.Output()), nil
}

// jobLoop is the timed loop of a prepared job.
func jobLoop(j Job, err error) (Loop, error) {
	if err != nil {
		return nil, err
	}
	return j.Run, nil
}

// ---- hash ----

type providedHash struct {
	providedBase
	impl    HashImpl
	vectors []hashVector
}

func (s *providedHash) KAT() error {
	for i, v := range s.vectors {
		got, err := runOnce(s.impl.Digest(v.input()))
		if err != nil {
			return fmt.Errorf("%s: %w: vector %s: %v", s.info.ID(), ErrKAT, vectorName(i, v.In), err)
		}
		if want := unhex(v.Out); !bytes.Equal(got, want) {
			return katError(s.info.ID(), vectorName(i, v.In), got, want)
		}
	}
	return nil
}

func (s *providedHash) Operations() []Operation {
	return []Operation{{Name: OpHash, Input: InputBulk, Prepare: func(a Args) (Loop, error) {
		return jobLoop(s.impl.Digest(testData(a.Size, s.info.Name, a.Variant)))
	}}}
}

// New returns a hash.Hash that buffers what is written and digests it with
// one library call per Sum: correct for any use, but not how the library is
// timed (see Operations).
func (s *providedHash) New() hash.Hash {
	return &bufferedHash{size: s.info.Sizes.Output, block: s.info.Sizes.Block,
		sum: func(msg []byte) ([]byte, error) { return runOnce(s.impl.Digest(msg)) }}
}

type bufferedHash struct {
	buf         []byte
	size, block int
	sum         func([]byte) ([]byte, error)
}

func (h *bufferedHash) Write(p []byte) (int, error) { h.buf = append(h.buf, p...); return len(p), nil }
func (h *bufferedHash) Reset()                      { h.buf = h.buf[:0] }
func (h *bufferedHash) Size() int                   { return h.size }
func (h *bufferedHash) BlockSize() int              { return h.block }
func (h *bufferedHash) Sum(b []byte) []byte {
	d, err := h.sum(h.buf)
	if err != nil {
		panic("scheme: library digest failed: " + err.Error()) // hash.Hash has no error; the KAT passed
	}
	return append(b, d...)
}

// ---- MAC ----

type providedMAC struct {
	providedBase
	impl    MACImpl
	vectors []macVector
}

func (s *providedMAC) KAT() error {
	for _, v := range s.vectors {
		got, err := runOnce(s.impl.MAC(v.Key, v.Msg))
		if err != nil {
			return fmt.Errorf("%s: %w: vector %s: %v", s.info.ID(), ErrKAT, v.Name, err)
		}
		want := unhex(v.Tag)
		if !macTagMatches(got, want) {
			return katError(s.info.ID(), v.Name, got, want)
		}
	}
	return nil
}

func (s *providedMAC) Operations() []Operation {
	return []Operation{{Name: OpMAC, Input: InputBulk, Prepare: func(a Args) (Loop, error) {
		key := testData(s.info.Sizes.Key, s.info.Name+"/key", a.Variant)
		return jobLoop(s.impl.MAC(key, testData(a.Size, s.info.Name, a.Variant)))
	}}}
}

func (s *providedMAC) NewMAC(key []byte) (hash.Hash, error) {
	key = bytes.Clone(key)
	return &bufferedHash{size: s.info.Sizes.Output, block: s.info.Sizes.Block,
		sum: func(msg []byte) ([]byte, error) { return runOnce(s.impl.MAC(key, msg)) }}, nil
}

// ---- AEAD ----

type providedAEAD struct {
	providedBase
	impl    AEADImpl
	vectors []aeadVector
}

func (s *providedAEAD) KAT() error {
	for _, v := range s.vectors {
		key, nonce, ad, pt, want := unhex(v.Key), unhex(v.Nonce), unhex(v.AD), unhex(v.PT), unhex(v.CT)
		got, err := runOnce(s.impl.Seal(key, nonce, ad, pt))
		if err != nil {
			return fmt.Errorf("%s: %w: vector %s: seal: %v", s.info.ID(), ErrKAT, v.Name, err)
		}
		if !bytes.Equal(got, want) {
			return katError(s.info.ID(), v.Name+" (seal)", got, want)
		}
		got, err = runOnce(s.impl.Open(key, nonce, ad, want))
		if err != nil {
			return fmt.Errorf("%s: %w: vector %s: the published ciphertext does not open: %v", s.info.ID(), ErrKAT, v.Name, err)
		}
		if !bytes.Equal(got, pt) {
			return katError(s.info.ID(), v.Name+" (open)", got, pt)
		}
		forged := bytes.Clone(want)
		forged[len(forged)-1] ^= 1
		if _, err := runOnce(s.impl.Open(key, nonce, ad, forged)); err == nil {
			return fmt.Errorf("%s: %w: vector %s: a ciphertext with a flipped tag bit opened", s.info.ID(), ErrKAT, v.Name)
		}
	}
	return nil
}

func (s *providedAEAD) inputs(a Args) (key, nonce, ad, pt []byte) {
	name := s.info.Name // the Go scheme's inputs: same bytes for every provider
	return testData(s.info.Sizes.Key, name+"/key", a.Variant), testData(s.info.Sizes.Nonce, name+"/nonce", a.Variant),
		testData(aeadADBytes, name+"/ad", a.Variant), testData(a.Size, name, a.Variant)
}

func (s *providedAEAD) Operations() []Operation {
	return []Operation{
		{Name: OpSeal, Input: InputBulk, Prepare: func(a Args) (Loop, error) {
			return jobLoop(s.impl.Seal(s.inputs(a)))
		}},
		{Name: OpOpen, Input: InputBulk, Prepare: func(a Args) (Loop, error) {
			key, nonce, ad, pt := s.inputs(a)
			ct, err := runOnce(s.impl.Seal(key, nonce, ad, pt))
			if err != nil {
				return nil, err
			}
			return jobLoop(s.impl.Open(key, nonce, ad, ct))
		}},
	}
}

func (s *providedAEAD) NewAEAD(key []byte) (cipher.AEAD, error) {
	if len(key) != s.info.Sizes.Key {
		return nil, fmt.Errorf("%s: key is %d bytes, want %d", s.info.ID(), len(key), s.info.Sizes.Key)
	}
	return &jobAEAD{s: s, key: bytes.Clone(key)}, nil
}

// jobAEAD is cipher.AEAD over one library call per Seal or Open.
type jobAEAD struct {
	s   *providedAEAD
	key []byte
}

func (a *jobAEAD) NonceSize() int { return a.s.info.Sizes.Nonce }
func (a *jobAEAD) Overhead() int  { return a.s.info.Sizes.Tag }
func (a *jobAEAD) Seal(dst, nonce, pt, ad []byte) []byte {
	out, err := runOnce(a.s.impl.Seal(a.key, nonce, ad, pt))
	if err != nil {
		panic("scheme: " + a.s.info.ID() + ": seal: " + err.Error())
	}
	return append(dst, out...)
}
func (a *jobAEAD) Open(dst, nonce, ct, ad []byte) ([]byte, error) {
	out, err := runOnce(a.s.impl.Open(a.key, nonce, ad, ct))
	if err != nil {
		return nil, errors.New("cipher: message authentication failed")
	}
	return append(dst, out...), nil
}

// ---- block ----

type providedBlock struct {
	providedBase
	impl    BlockImpl
	vectors []blockVector
}

func (s *providedBlock) has(m blockMode) bool { return slices.Contains(s.impl.Modes, string(m)) }

func (s *providedBlock) crypt(m blockMode, decrypt bool, key, iv, in []byte) ([]byte, error) {
	return runOnce(s.impl.Crypt(string(m), decrypt, key, iv, in))
}

// KAT checks every published vector in a mode the library offers, both
// directions, twice (each call restarts from the IV), then round-trips the
// offered modes no vector covers.
func (s *providedBlock) KAT() error {
	covered := map[blockMode]bool{}
	for i, v := range s.vectors {
		if !s.has(v.Mode) {
			continue
		}
		name := "#" + itoa(i) + " (" + v.Source + ", " + string(v.Mode) + ")"
		key, iv, in, out := unhex(v.Key), unhex(v.IV), unhex(v.In), unhex(v.Out)
		if v.Mode == blockModeECB {
			iv = nil
		}
		for _, dir := range []struct {
			decrypt   bool
			src, want []byte
		}{{false, in, out}, {true, out, in}} {
			j, err := s.impl.Crypt(string(v.Mode), dir.decrypt, key, iv, dir.src)
			if err != nil {
				return fmt.Errorf("%s: %w: vector %s: %v", s.info.ID(), ErrKAT, name, err)
			}
			if err := j.Run(2); err != nil {
				return fmt.Errorf("%s: %w: vector %s: %v", s.info.ID(), ErrKAT, name, err)
			}
			if got := j.Output(); !bytes.Equal(got, dir.want) {
				return katError(s.info.ID(), name+" "+v.Mode.op(dir.decrypt), got, dir.want)
			}
		}
		covered[v.Mode] = true
	}
	for _, m := range s.impl.Modes {
		mode := blockMode(m)
		if covered[mode] {
			continue
		}
		key, iv := s.testKeyIV(0)
		size := 3 * s.info.Sizes.Block
		if !mode.wholeBlocks() {
			size += s.info.Sizes.Block / 2
		}
		msg := testData(size, s.info.Name+"/round-trip", 0)
		ct, err := s.crypt(mode, false, key, iv, msg)
		if err != nil {
			return fmt.Errorf("%s: %w: %s round trip: %v", s.info.ID(), ErrKAT, mode, err)
		}
		pt, err := s.crypt(mode, true, key, iv, ct)
		switch {
		case err != nil:
			return fmt.Errorf("%s: %w: %s round trip: %v", s.info.ID(), ErrKAT, mode, err)
		case bytes.Equal(ct, msg):
			return fmt.Errorf("%s: %w: %s encryption left the message unchanged", s.info.ID(), ErrKAT, mode)
		case !bytes.Equal(pt, msg):
			return katError(s.info.ID(), string(mode)+" round trip", pt, msg)
		}
	}
	return nil
}

func (s *providedBlock) testKeyIV(variant int) (key, iv []byte) {
	return testData(s.info.Sizes.Key, s.info.Name+"/key", variant), testData(s.info.Sizes.Nonce, s.info.Name+"/iv", variant)
}

func (s *providedBlock) Operations() []Operation {
	var ops []Operation
	for _, m := range blockModes {
		if !s.has(m) {
			continue
		}
		for _, decrypt := range []bool{false, true} {
			op := Operation{Name: m.op(decrypt), Input: InputBulk}
			if m.wholeBlocks() {
				op.Multiple = s.info.Sizes.Block
			}
			check := op
			op.Prepare = func(a Args) (Loop, error) {
				if err := check.CheckSize(a.Size); err != nil {
					return nil, fmt.Errorf("%s: %w", s.info.ID(), err)
				}
				key, iv := s.testKeyIV(a.Variant)
				if m == blockModeECB {
					iv = nil
				}
				msg := testData(a.Size, s.info.Name+"/"+string(m), a.Variant)
				if decrypt {
					ct, err := s.crypt(m, false, key, iv, msg)
					if err != nil {
						return nil, err
					}
					msg = ct
				}
				return jobLoop(s.impl.Crypt(string(m), decrypt, key, iv, msg))
			}
			ops = append(ops, op)
		}
	}
	return ops
}

// NewCipher returns a cipher.Block that encrypts each block with one
// library ECB call (correct, not fast), for code written against Go's
// interface; it needs the library's ECB mode.
func (s *providedBlock) NewCipher(key []byte) (cipher.Block, error) {
	if len(key) != s.info.Sizes.Key {
		return nil, fmt.Errorf("%s: key is %d bytes, want %d", s.info.ID(), len(key), s.info.Sizes.Key)
	}
	if !s.has(blockModeECB) {
		return nil, fmt.Errorf("%s: the library offers no single-block (ECB) call to build a cipher.Block on", s.info.ID())
	}
	return &jobBlock{s: s, key: bytes.Clone(key)}, nil
}

type jobBlock struct {
	s   *providedBlock
	key []byte
}

func (b *jobBlock) BlockSize() int { return b.s.info.Sizes.Block }
func (b *jobBlock) Encrypt(dst, src []byte) {
	b.do(dst, src, false)
}
func (b *jobBlock) Decrypt(dst, src []byte) { b.do(dst, src, true) }
func (b *jobBlock) do(dst, src []byte, decrypt bool) {
	out, err := b.s.crypt(blockModeECB, decrypt, b.key, nil, src[:b.BlockSize()])
	if err != nil {
		panic("scheme: " + b.s.info.ID() + ": " + err.Error())
	}
	copy(dst, out)
}

// ---- stream ----

type providedStream struct {
	providedBase
	impl    StreamImpl
	vectors []streamVector
}

// KAT encrypts each vector's input behind Offset zero bytes (the library
// starts at the keystream's beginning) and compares what follows them.
func (s *providedStream) KAT() error {
	for _, v := range s.vectors {
		in, want := streamHex(v.In), streamHex(v.Out)
		if in == nil {
			in = make([]byte, len(want))
		}
		if v.Bits > 0 {
			n := (v.Bits + 7) / 8
			in, want = in[:n], bytes.Clone(want[:n])
			streamClearTail(want, v.Bits)
		}
		got, err := runOnce(s.impl.XOR(streamHex(v.Key), streamHex(v.IV), append(make([]byte, v.Offset), in...)))
		if err != nil {
			return fmt.Errorf("%s: %w: vector %s: %v", s.info.ID(), ErrKAT, v.Name, err)
		}
		got = got[v.Offset:]
		if v.Bits > 0 {
			streamClearTail(got, v.Bits)
		}
		if !bytes.Equal(got, want) {
			return katError(s.info.ID(), v.Name, got, want)
		}
	}
	return nil
}

// Operations: encrypt and decrypt; each call keys the cipher and starts
// the keystream afresh (the Go schemes continue one keystream and time key
// setup on its own).
func (s *providedStream) Operations() []Operation {
	op := func(name string) Operation {
		return Operation{Name: name, Input: InputBulk, Prepare: func(a Args) (Loop, error) {
			key := testData(s.info.Sizes.Key, s.info.Name+" key", a.Variant)
			iv := testData(s.info.Sizes.Nonce, s.info.Name+" iv", a.Variant)
			return jobLoop(s.impl.XOR(key, iv, testData(a.Size, s.info.Name, a.Variant)))
		}}
	}
	return []Operation{op(OpEncrypt), op(OpDecrypt)}
}

// NewStream returns a cipher.Stream that encrypts each XORKeyStream call's
// bytes with one library call, continuing the keystream by re-encrypting
// what came before (correct, slow: for code written against Go's
// interface, not for timing).
func (s *providedStream) NewStream(key, iv []byte) (cipher.Stream, error) {
	return &jobStream{s: s, key: bytes.Clone(key), iv: bytes.Clone(iv)}, nil
}

type jobStream struct {
	s       *providedStream
	key, iv []byte
	done    int
}

func (j *jobStream) XORKeyStream(dst, src []byte) {
	out, err := runOnce(j.s.impl.XOR(j.key, j.iv, append(make([]byte, j.done), src...)))
	if err != nil {
		panic("scheme: " + j.s.info.ID() + ": " + err.Error())
	}
	copy(dst, out[j.done:])
	j.done += len(src)
}

// ---- signatures ----

type signKind int

const (
	signEdDSA signKind = iota + 1 // deterministic: the vectors' signatures are reproduced
	signECDSA                     // randomised: the vectors' signatures are verified
)

// ProvidedPublicKey and ProvidedPrivateKey are the raw key encodings (see
// above) as the crypto.PublicKey and crypto.PrivateKey of provided
// signature and agreement schemes.
type (
	ProvidedPublicKey  []byte
	ProvidedPrivateKey []byte
)

type providedSign struct {
	providedBase
	impl    SignImpl
	vectors []signVector
	kind    signKind
	keygen  bool
}

func (s *providedSign) KAT() error {
	id := s.info.ID()
	for _, v := range s.vectors {
		priv, pub, msg := unhex(v.key), unhex(v.pub), unhex(v.msg)
		// A vector without a private key (Wycheproof's) is a published
		// public key and signature: verified only.
		if v.key != "" {
			got, err := s.impl.Public(priv)
			if err != nil {
				return fmt.Errorf("%s: %w: vector %s: the private key was rejected: %v", id, ErrKAT, v.name, err)
			}
			if !bytes.Equal(got, pub) {
				return katError(id, v.name+" public key", got, pub)
			}
		}
		want := unhex(v.sig)
		if s.kind == signECDSA {
			want = signDER(want)
		} else {
			got, err := runOnce(s.impl.Sign(priv, msg))
			if err != nil {
				return fmt.Errorf("%s: %w: vector %s: %v", id, ErrKAT, v.name, err)
			}
			if !bytes.Equal(got, want) {
				return katError(id, v.name, got, want)
			}
		}
		if _, err := runOnce(s.impl.Verify(pub, msg, want)); err != nil {
			return signKATError(id, v.name, "the published signature does not verify: "+err.Error())
		}
	}
	pub, priv, err := s.impl.GenerateKey()
	if err != nil {
		return fmt.Errorf("%s: round trip: %w", id, err)
	}
	msg := []byte(signRoundTripMessage)
	sig, err := runOnce(s.impl.Sign(priv, msg))
	if err != nil {
		return fmt.Errorf("%s: round trip: %w", id, err)
	}
	if _, err := runOnce(s.impl.Verify(pub, msg, sig)); err != nil {
		return signKATError(id, "round trip", "a fresh signature does not verify")
	}
	if _, err := runOnce(s.impl.Verify(pub, msg[1:], sig)); err == nil {
		return signKATError(id, "round trip", "the signature verifies for a different message")
	}
	bad := bytes.Clone(sig)
	bad[len(bad)/2] ^= 0x01
	if _, err := runOnce(s.impl.Verify(pub, msg, bad)); err == nil {
		return signKATError(id, "round trip", "a corrupted signature verifies")
	}
	return nil
}

func (s *providedSign) Operations() []Operation {
	var ops []Operation
	if s.keygen {
		ops = append(ops, Operation{Name: OpKeygen, Input: InputNone, Prepare: func(Args) (Loop, error) {
			return jobLoop(s.impl.Keygen())
		}})
	}
	return append(ops,
		Operation{Name: OpSign, Input: InputMessage, DefaultSizes: []int{32}, Prepare: func(a Args) (Loop, error) {
			_, priv, err := s.impl.GenerateKey()
			if err != nil {
				return nil, err
			}
			return jobLoop(s.impl.Sign(priv, testData(a.Size, s.info.Name, a.Variant)))
		}},
		Operation{Name: OpVerify, Input: InputMessage, DefaultSizes: []int{32}, Prepare: func(a Args) (Loop, error) {
			pub, priv, err := s.impl.GenerateKey()
			if err != nil {
				return nil, err
			}
			msg := testData(a.Size, s.info.Name, a.Variant)
			sig, err := runOnce(s.impl.Sign(priv, msg))
			if err != nil {
				return nil, err
			}
			return jobLoop(s.impl.Verify(pub, msg, sig))
		}})
}

func (s *providedSign) GenerateKey() (crypto.PublicKey, crypto.PrivateKey, error) {
	pub, priv, err := s.impl.GenerateKey()
	return ProvidedPublicKey(pub), ProvidedPrivateKey(priv), err
}

func (s *providedSign) Sign(priv crypto.PrivateKey, msg []byte) ([]byte, error) {
	k, err := signKeyOf[ProvidedPrivateKey](priv)
	if err != nil {
		return nil, err
	}
	return runOnce(s.impl.Sign(k, msg))
}

func (s *providedSign) Verify(pub crypto.PublicKey, msg, sig []byte) bool {
	k, err := signKeyOf[ProvidedPublicKey](pub)
	if err != nil {
		return false
	}
	_, err = runOnce(s.impl.Verify(k, msg, sig))
	return err == nil
}

// ---- key agreement ----

type providedAgreement struct {
	providedBase
	impl    AgreementImpl
	vectors func() []kexAgreementVector
}

func (s *providedAgreement) KAT() error {
	id := s.info.ID()
	for _, v := range s.vectors() {
		priv := unhex(v.Private)
		if v.Public != "" {
			pub, err := s.impl.Public(priv)
			if err != nil {
				return kexFailed(id, v.Source, fmt.Errorf("private key rejected: %v", err))
			}
			if want := unhex(v.Public); !bytes.Equal(pub, want) {
				return kexMismatch(id, v.Source+" (public value)", pub, want)
			}
		}
		got, err := runOnce(s.impl.Derive(priv, unhex(v.Peer)))
		switch {
		case v.Shared == "" && err == nil:
			return fmt.Errorf("%s: %w: vector %s: an invalid peer value was accepted (shared secret %x)", id, ErrKAT, v.Source, got)
		case v.Shared == "":
		case err != nil:
			return kexFailed(id, v.Source, err)
		case !bytes.Equal(got, unhex(v.Shared)):
			return kexMismatch(id, v.Source, got, unhex(v.Shared))
		}
	}
	return nil
}

func (s *providedAgreement) Operations() []Operation {
	return []Operation{
		{Name: OpKeygen, Input: InputNone, Prepare: func(Args) (Loop, error) { return jobLoop(s.impl.Keygen()) }},
		{Name: OpDerive, Input: InputNone, Prepare: func(Args) (Loop, error) {
			_, own, err := s.impl.GenerateKey()
			if err != nil {
				return nil, err
			}
			peer, _, err := s.impl.GenerateKey()
			if err != nil {
				return nil, err
			}
			return jobLoop(s.impl.Derive(own, peer))
		}},
	}
}

func (s *providedAgreement) GenerateKey() (crypto.PublicKey, crypto.PrivateKey, error) {
	pub, priv, err := s.impl.GenerateKey()
	return ProvidedPublicKey(pub), ProvidedPrivateKey(priv), err
}

func (s *providedAgreement) SharedSecret(priv crypto.PrivateKey, peer crypto.PublicKey) ([]byte, error) {
	k, err := signKeyOf[ProvidedPrivateKey](priv)
	if err != nil {
		return nil, err
	}
	p, err := signKeyOf[ProvidedPublicKey](peer)
	if err != nil {
		return nil, err
	}
	return runOnce(s.impl.Derive(k, p))
}

var (
	_ HashScheme      = (*providedHash)(nil)
	_ MACScheme       = (*providedMAC)(nil)
	_ AEADScheme      = (*providedAEAD)(nil)
	_ BlockScheme     = (*providedBlock)(nil)
	_ StreamScheme    = (*providedStream)(nil)
	_ SignScheme      = (*providedSign)(nil)
	_ AgreementScheme = (*providedAgreement)(nil)
)
