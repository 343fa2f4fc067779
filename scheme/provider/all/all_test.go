package all

import (
	"bytes"
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/scheme"
)

// The C providers and the Debian package each needs; scripts/deps/providers.txt
// installs them.
var debianPackages = map[scheme.Provider]string{
	"openssl": "libssl-dev", "sodium": "libsodium-dev", "mbedtls": "libmbedtls-dev",
	"wolfssl": "libwolfssl-dev", "gcrypt": "libgcrypt20-dev",
}

// TestProvidersPresent checks that every C provider compiled in and its
// library loaded. Full tier: a missing library fails, naming its package;
// with -short, or in a CGO_ENABLED=0 build (where every provider must say
// it was built without cgo), it only reports.
func TestProvidersPresent(t *testing.T) {
	seen := map[scheme.Provider]bool{}
	for _, p := range scheme.Providers() {
		if p.Kind != scheme.KindC {
			continue
		}
		seen[p.Name] = true
		if p.Package != debianPackages[p.Name] {
			t.Errorf("%s: Debian package %q, want %q", p.Name, p.Package, debianPackages[p.Name])
		}
		switch {
		case p.Status == scheme.ProviderAvailable:
			if p.Library == "" || p.Schemes == 0 {
				t.Errorf("%s: available with library %q and %d schemes", p.Name, p.Library, p.Schemes)
			}
		case !cgoEnabled:
			if p.Status != scheme.ProviderNotCompiled || !strings.Contains(p.Reason, "CGO_ENABLED=0") {
				t.Errorf("%s without cgo: status %q, reason %q; want not compiled in, built without cgo", p.Name, p.Status, p.Reason)
			}
		case testing.Short():
			t.Logf("%s is %s: %s (install %s)", p.Name, p.Status, p.Reason, p.Package)
		default:
			t.Errorf("%s is %s: %s; install Debian package %s (scripts/deps/providers.txt)", p.Name, p.Status, p.Reason, p.Package)
		}
		_, err := scheme.LookupProvider(string(p.Name))
		if (err == nil) != (p.Status == scheme.ProviderAvailable) {
			t.Errorf("LookupProvider(%s) = %v with status %s", p.Name, err, p.Status)
		}
		if err != nil && !strings.Contains(err.Error(), p.Package) {
			t.Errorf("LookupProvider(%s) error %q does not name the Debian package %s", p.Name, err, p.Package)
		}
	}
	for p := range debianPackages {
		if !seen[p] {
			t.Errorf("provider %s is not declared (is it imported by package all?)", p)
		}
	}
}

// providedSchemes are the registered schemes of C providers.
func providedSchemes() []scheme.Scheme {
	var out []scheme.Scheme
	for _, s := range scheme.All() {
		if scheme.IsCProvider(s.Info().Provider) {
			out = append(out, s)
		}
	}
	return out
}

// TestProvidedKnownAnswers runs every C provider scheme's KAT: the Go
// scheme's vectors through the library calls that are timed. Fast tier.
func TestProvidedKnownAnswers(t *testing.T) {
	for _, s := range providedSchemes() {
		t.Run(s.Info().ID(), func(t *testing.T) {
			if err := s.KAT(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestProvidedOperationsRun prepares every operation of every C provider
// scheme at a small size and runs its loop: the code the engine times.
// Fast tier (one loop of 3 calls each).
func TestProvidedOperationsRun(t *testing.T) {
	for _, s := range providedSchemes() {
		for _, op := range s.Operations() {
			t.Run(s.Info().ID()+"/"+op.Name, func(t *testing.T) {
				size := 0
				if op.Input != scheme.InputNone {
					size = 64
				}
				loop, err := op.Prepare(scheme.Args{Size: size, Variant: 1})
				if err != nil {
					t.Fatalf("prepare: %v", err)
				}
				if err := loop(3); err != nil {
					t.Fatalf("run: %v", err)
				}
			})
		}
	}
}

// TestProvidedInfoMatchesGo checks that a provider's scheme describes the
// same algorithm as the Go scheme of its name (sizes, security, standard),
// and that a name without a provider resolves to a Go implementation.
func TestProvidedInfoMatchesGo(t *testing.T) {
	for _, s := range providedSchemes() {
		info := s.Info()
		ref, err := scheme.Lookup(info.Name)
		if err != nil {
			t.Fatal(err)
		}
		if scheme.IsCProvider(ref.Info().Provider) {
			t.Errorf("Lookup(%q) = %s, want a Go implementation", info.Name, ref.Info().ID())
			continue
		}
		r := ref.Info()
		if info.Family != r.Family || info.Security != r.Security || info.Standard != r.Standard ||
			info.Sizes.Output != r.Sizes.Output || info.Sizes.Key != r.Sizes.Key || info.Sizes.Signature != r.Sizes.Signature {
			t.Errorf("%s describes another algorithm than %s:\n%+v\n%+v", info.ID(), r.ID(), *info, *r)
		}
	}
}

// family returns the providers of name whose schemes implement T.
func implementations[T any](name string) map[string]T {
	out := map[string]T{}
	ss, _ := scheme.Match(name)
	for _, s := range ss {
		if t, ok := s.(T); ok {
			out[s.Info().ID()] = t
		}
	}
	return out
}

// names returns the registered names that have at least two providers.
func sharedNames(f scheme.Family) []string {
	count := map[string]int{}
	var names []string
	for _, s := range scheme.All() {
		if s.Info().Family != f {
			continue
		}
		if count[s.Info().Name]++; count[s.Info().Name] == 2 {
			names = append(names, s.Info().Name)
		}
	}
	return names
}

// agree checks that every implementation gives the same output for the
// same input; fast tier.
func agree(t *testing.T, name string, outputs map[string][]byte) {
	t.Helper()
	var firstID string
	var first []byte
	for id, out := range outputs {
		if first == nil {
			firstID, first = id, out
			continue
		}
		if !bytes.Equal(out, first) {
			t.Errorf("%s: %s gives %x, %s gives %x", name, id, out, firstID, first)
		}
	}
}

// TestCrossProviderDeterministic gives every provider of an algorithm the
// same key and message and compares what the algorithm defines exactly:
// digests, MACs, AEAD ciphertexts, block cipher blocks and keystreams,
// through the family interfaces. Fast tier.
func TestCrossProviderDeterministic(t *testing.T) {
	msg := bytes.Repeat([]byte("cross-provider "), 67) // 1005 bytes: not a block multiple
	for _, name := range sharedNames(scheme.FamilyHash) {
		outs := map[string][]byte{}
		for id, s := range implementations[scheme.HashScheme](name) {
			h := s.New()
			h.Write(msg)
			outs[id] = h.Sum(nil)
		}
		agree(t, name, outs)
	}
	for _, name := range sharedNames(scheme.FamilyMAC) {
		outs := map[string][]byte{}
		for id, s := range implementations[scheme.MACScheme](name) {
			m, err := s.NewMAC(bytes.Repeat([]byte{0x42}, s.Info().Sizes.Key))
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			m.Write(msg)
			outs[id] = m.Sum(nil)
		}
		agree(t, name, outs)
	}
	for _, name := range sharedNames(scheme.FamilyAEAD) {
		outs := map[string][]byte{}
		for id, s := range implementations[scheme.AEADScheme](name) {
			info := s.Info()
			a, err := s.NewAEAD(bytes.Repeat([]byte{7}, info.Sizes.Key))
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			nonce := bytes.Repeat([]byte{9}, info.Sizes.Nonce)
			ct := a.Seal(nil, nonce, msg, []byte("ad"))
			pt, err := a.Open(nil, nonce, ct, []byte("ad"))
			if err != nil || !bytes.Equal(pt, msg) {
				t.Errorf("%s: own ciphertext does not open: %v", id, err)
			}
			outs[id] = ct
		}
		agree(t, name, outs)
	}
	for _, name := range sharedNames(scheme.FamilyBlock) {
		outs := map[string][]byte{}
		for id, s := range implementations[scheme.BlockScheme](name) {
			b, err := s.NewCipher(bytes.Repeat([]byte{3}, s.Info().Sizes.Key))
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			out := make([]byte, b.BlockSize())
			b.Encrypt(out, msg[:b.BlockSize()])
			outs[id] = out
		}
		agree(t, name, outs)
	}
	for _, name := range sharedNames(scheme.FamilyStream) {
		outs := map[string][]byte{}
		for id, s := range implementations[scheme.StreamScheme](name) {
			info := s.Info()
			st, err := s.NewStream(bytes.Repeat([]byte{5}, info.Sizes.Key), bytes.Repeat([]byte{6}, info.Sizes.Nonce))
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			out := make([]byte, 100)
			st.XORKeyStream(out, msg[:100])
			outs[id] = out
		}
		agree(t, name, outs)
	}
}

// rawSigner is one implementation of a signature algorithm over the raw
// key encodings of scheme/provided.go.
type rawSigner struct {
	id     string
	sign   func(priv, msg []byte) ([]byte, error)
	verify func(pub, msg, sig []byte) bool
	gen    func() (pub, priv []byte, err error)
}

// goSigner adapts the Go implementations to raw keys.
func goSigner(name string) (rawSigner, bool) {
	switch name {
	case "Ed25519":
		return rawSigner{id: "Ed25519@go(crypto/ed25519)",
			sign: func(priv, msg []byte) ([]byte, error) { return ed25519.Sign(ed25519.NewKeyFromSeed(priv), msg), nil },
			verify: func(pub, msg, sig []byte) bool {
				return len(pub) == ed25519.PublicKeySize && ed25519.Verify(pub, msg, sig)
			},
			gen: func() ([]byte, []byte, error) {
				pub, priv, err := ed25519.GenerateKey(nil)
				return pub, priv.Seed(), err
			}}, true
	case "ECDSA-P256-SHA256":
		digest := func(m []byte) []byte { d := sha256.Sum256(m); return d[:] }
		return rawSigner{id: "ECDSA-P256-SHA256@go(crypto/ecdsa)",
			sign: func(priv, msg []byte) ([]byte, error) {
				k, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), priv)
				if err != nil {
					return nil, err
				}
				return k.Sign(nil, digest(msg), crypto.SHA256) // RFC 6979 with a nil random source
			},
			verify: func(pub, msg, sig []byte) bool {
				k, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), pub)
				return err == nil && ecdsa.VerifyASN1(k, digest(msg), sig)
			},
			gen: func() ([]byte, []byte, error) {
				k, err := ecdsa.GenerateKey(elliptic.P256(), nil)
				if err != nil {
					return nil, nil, err
				}
				pub, _ := k.PublicKey.Bytes()
				priv, err := k.Bytes()
				return pub, priv, err
			}}, true
	}
	return rawSigner{}, false
}

// providedSigners returns the C providers' implementations of name.
func providedSigners(name string) []rawSigner {
	var out []rawSigner
	for id, s := range implementations[scheme.SignScheme](name) {
		if !scheme.IsCProvider(scheme.Provider(strings.SplitN(id, "@", 2)[1])) {
			continue
		}
		out = append(out, rawSigner{id: id,
			sign: func(priv, msg []byte) ([]byte, error) { return s.Sign(scheme.ProvidedPrivateKey(priv), msg) },
			verify: func(pub, msg, sig []byte) bool {
				return s.Verify(scheme.ProvidedPublicKey(pub), msg, sig)
			},
			gen: func() ([]byte, []byte, error) {
				pub, priv, err := s.GenerateKey()
				if err != nil {
					return nil, nil, err
				}
				return pub.(scheme.ProvidedPublicKey), priv.(scheme.ProvidedPrivateKey), nil
			}})
	}
	return out
}

// TestCrossProviderSignatures signs with each implementation (the C
// providers and Go) and verifies with every other; for Ed25519, and for
// ECDSA where the provider is deterministic (RFC 6979: Go with a nil
// random source, Mbed TLS as Debian builds it), the signatures of one key
// and message must be identical. Fast tier.
func TestCrossProviderSignatures(t *testing.T) {
	msg := []byte("sign with one, verify with another")
	for _, name := range []string{"Ed25519", "ECDSA-P256-SHA256", "ECDSA-P384-SHA384", "Ed448"} {
		signers := providedSigners(name)
		if g, ok := goSigner(name); ok {
			signers = append(signers, g)
		}
		if len(signers) < 2 {
			continue
		}
		deterministic := map[string][]byte{}
		for _, a := range signers {
			pub, priv, err := a.gen()
			if err != nil {
				t.Fatalf("%s: keygen: %v", a.id, err)
			}
			sig, err := a.sign(priv, msg)
			if err != nil {
				t.Fatalf("%s: sign: %v", a.id, err)
			}
			for _, b := range signers {
				if !b.verify(pub, msg, sig) {
					t.Errorf("%s does not verify a signature by %s", b.id, a.id)
				}
				if b.verify(pub, msg[1:], sig) {
					t.Errorf("%s verifies %s's signature for another message", b.id, a.id)
				}
			}
		}
		// One key for all: which outputs are fixed by the algorithm.
		_, priv, err := signers[0].gen()
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range signers {
			sig, err := s.sign(priv, msg)
			if err != nil {
				t.Fatalf("%s: %v", s.id, err)
			}
			again, _ := s.sign(priv, msg)
			if bytes.Equal(sig, again) {
				deterministic[s.id] = sig
			}
		}
		if strings.HasPrefix(name, "Ed") && len(deterministic) != len(signers) {
			t.Errorf("%s: EdDSA is deterministic, but only %d of %d implementations signed twice alike", name, len(deterministic), len(signers))
		}
		agree(t, name+" (deterministic signatures)", deterministic)
	}
}

// TestCrossProviderAgreement derives the shared secret of one key pair
// with every provider of X25519, X448 and ECDH-P256 and with crypto/ecdh:
// all must agree. Fast tier.
func TestCrossProviderAgreement(t *testing.T) {
	curves := map[string]ecdh.Curve{"X25519": ecdh.X25519(), "ECDH-P256": ecdh.P256(), "ECDH-P384": ecdh.P384(), "X448": nil}
	for name, curve := range curves {
		var gens []scheme.AgreementScheme
		for id, s := range implementations[scheme.AgreementScheme](name) {
			if scheme.IsCProvider(scheme.Provider(strings.SplitN(id, "@", 2)[1])) {
				gens = append(gens, s)
			}
		}
		if len(gens) == 0 {
			continue
		}
		pubA, privA, err := gens[0].GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		pubB, privB, err := gens[len(gens)-1].GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		outs := map[string][]byte{}
		for _, s := range gens {
			ab, err := s.SharedSecret(privA, pubB)
			if err != nil {
				t.Fatalf("%s: %v", s.Info().ID(), err)
			}
			ba, err := s.SharedSecret(privB, pubA)
			if err != nil || !bytes.Equal(ab, ba) {
				t.Errorf("%s: the two sides disagree (%v)", s.Info().ID(), err)
			}
			outs[s.Info().ID()] = ab
		}
		if curve != nil {
			k, err := curve.NewPrivateKey(privA.(scheme.ProvidedPrivateKey))
			if err != nil {
				t.Fatal(err)
			}
			peer, err := curve.NewPublicKey(pubB.(scheme.ProvidedPublicKey))
			if err != nil {
				t.Fatal(err)
			}
			z, err := k.ECDH(peer)
			if err != nil {
				t.Fatal(err)
			}
			outs[name+"@go(crypto/ecdh)"] = z
		}
		agree(t, name, outs)
	}
}

// TestProvidedKATCanFail shows the gate closes: a provider's scheme whose
// library call is replaced by one that flips a bit does not pass. Fast tier.
func TestProvidedKATCanFail(t *testing.T) {
	s, err := scheme.Provide("SHA-256", "broken", scheme.HashImpl{Digest: func(msg []byte) (scheme.Job, error) {
		return &flipJob{h: sha512.New512_256()}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.KAT(); err == nil {
		t.Fatal("a digest that is not SHA-256 passed SHA-256's KAT")
	}
}

type flipJob struct{ h hash.Hash }

func (j *flipJob) Run(n int) error { return nil }
func (j *flipJob) Output() []byte  { return j.h.Sum(nil) }
