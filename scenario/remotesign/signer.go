package remotesign

import (
	"crypto"
	//lint:ignore SA1019 S001 measured DSA; the scheme registry holds it
	"crypto/dsa"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/scheme"
)

// Key is one signing key the signer holds: a key pair of a registry scheme
// (so the scheme's known-answer test vouches for the algorithm, and the
// client checks every signature with the scheme's own Verify), with the
// signing split into hashing the document and the private-key operation
// on the digest, so the two can be timed apart as S001 asked.
type Key struct {
	Scheme scheme.SignScheme
	// Public is the public key; PublicDER its SubjectPublicKeyInfo.
	Public    crypto.PublicKey
	PublicDER []byte
	// Hash is what the document is hashed with before the private-key
	// operation; 0 for Ed25519, which hashes inside signing (RFC 8032
	// §5.1.6 hashes the message twice with SHA-512, interleaved with the
	// scalar work), so its whole signature counts as signing.
	Hash crypto.Hash
	// signDigest is the private-key operation on the digest (on the
	// document itself when Hash is 0).
	signDigest func(digest []byte) ([]byte, error)
}

// Name is the scheme's registry name.
func (k *Key) Name() string { return k.Scheme.Info().Name }

// NewKey generates a key pair with the scheme's GenerateKey and prepares
// the digest signer for its key type. The digest signers call the same
// standard-library functions the scheme's Sign calls after hashing (RSA
// PKCS#1 v1.5 and PSS with the hash's length as salt, ECDSA with an ASN.1
// signature, DSA with the digest truncated to N bits); tests check that
// every signature they make verifies with the scheme's Verify.
func NewKey(s scheme.SignScheme) (*Key, error) {
	info := s.Info()
	pub, priv, err := s.GenerateKey()
	if err != nil {
		return nil, fmt.Errorf("%s: generating a key: %w", info.Name, err)
	}
	k := &Key{Scheme: s, Public: pub}
	param := func(key string) string {
		for _, p := range info.Params {
			if p.Key == key {
				return p.Value
			}
		}
		return ""
	}
	hashByName := map[string]crypto.Hash{"SHA-256": crypto.SHA256, "SHA-384": crypto.SHA384, "SHA-512": crypto.SHA512}
	switch priv := priv.(type) {
	case *rsa.PrivateKey:
		k.Hash = hashByName[param("hash")]
		if strings.Contains(param("padding"), "PSS") {
			opts := &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash, Hash: k.Hash}
			k.signDigest = func(d []byte) ([]byte, error) { return rsa.SignPSS(rand.Reader, priv, k.Hash, d, opts) }
		} else {
			k.signDigest = func(d []byte) ([]byte, error) { return rsa.SignPKCS1v15(rand.Reader, priv, k.Hash, d) }
		}
	case *ecdsa.PrivateKey:
		k.Hash = hashByName[param("hash")]
		k.signDigest = func(d []byte) ([]byte, error) { return ecdsa.SignASN1(rand.Reader, priv, d) }
	case *dsa.PrivateKey:
		// FIPS 186-4 §4.6: the leftmost min(N, outlen) bits of the hash.
		k.Hash = crypto.SHA256
		n := priv.Q.BitLen() / 8
		k.signDigest = func(d []byte) ([]byte, error) {
			r, s, err := dsa.Sign(rand.Reader, priv, d[:min(n, len(d))])
			if err != nil {
				return nil, err
			}
			return asn1.Marshal(struct{ R, S *big.Int }{r, s})
		}
	case ed25519.PrivateKey:
		k.signDigest = func(msg []byte) ([]byte, error) { return ed25519.Sign(priv, msg), nil }
	default:
		return nil, fmt.Errorf("%s: keys of type %T cannot be split into hashing and signing here; remote-sign supports RSA, DSA, ECDSA and Ed25519", info.Name, priv)
	}
	if k.Hash == 0 && k.signDigest != nil {
		if _, isEd := priv.(ed25519.PrivateKey); !isEd {
			return nil, fmt.Errorf("%s: hash %q is not SHA-256, SHA-384 or SHA-512", info.Name, param("hash"))
		}
	}
	if k.PublicDER, err = marshalPublicKey(pub); err != nil {
		return nil, fmt.Errorf("%s: %w", info.Name, err)
	}
	return k, nil
}

// Signature is a signature with the signer's timings.
type Signature struct {
	Bytes []byte
	// Hash and Sign are the wall times of hashing the document and of
	// the private-key operation; CPU is the calling thread's CPU time for
	// both (0 and CPUKnown false where the platform has no thread clock).
	Hash, Sign time.Duration
	CPU        time.Duration
	CPUKnown   bool
}

// Sign hashes doc and signs the digest, timing each part. Callers that
// want CPU time lock their goroutine to its OS thread first
// (runtime.LockOSThread), or the thread clock may read another
// goroutine's work.
func (k *Key) Sign(doc []byte) (Signature, error) {
	var clk measure.RealClock
	cpu0, cpuOK := clk.ThreadCPU()
	t0 := time.Now()
	input := doc
	if k.Hash != 0 {
		h := k.Hash.New()
		h.Write(doc)
		input = h.Sum(nil)
	}
	t1 := time.Now()
	sig, err := k.signDigest(input)
	t2 := time.Now()
	cpu1, cpuOK1 := clk.ThreadCPU()
	if err != nil {
		return Signature{}, err
	}
	out := Signature{Bytes: sig, Hash: t1.Sub(t0), Sign: t2.Sub(t1)}
	if cpuOK && cpuOK1 {
		out.CPU, out.CPUKnown = time.Duration(cpu1-cpu0), true
	}
	return out, nil
}

// oidDSA is id-dsa (RFC 3279 §2.3.2).
var oidDSA = asn1.ObjectIdentifier{1, 2, 840, 10040, 4, 1}

// marshalPublicKey encodes a SubjectPublicKeyInfo (RFC 5280 §4.1.2.7).
// crypto/x509 marshals RSA, ECDSA and Ed25519 keys but not DSA ones, which
// are written here as RFC 3279 §2.3.2 says (Dss-Parms, then y as an
// INTEGER); x509.ParsePKIXPublicKey reads both back.
func marshalPublicKey(pub crypto.PublicKey) ([]byte, error) {
	d, ok := pub.(*dsa.PublicKey)
	if !ok {
		return x509.MarshalPKIXPublicKey(pub)
	}
	params, err := asn1.Marshal(struct{ P, Q, G *big.Int }{d.P, d.Q, d.G})
	if err != nil {
		return nil, err
	}
	y, err := asn1.Marshal(d.Y)
	if err != nil {
		return nil, err
	}
	return asn1.Marshal(struct {
		Algorithm pkix.AlgorithmIdentifier
		PublicKey asn1.BitString
	}{
		Algorithm: pkix.AlgorithmIdentifier{Algorithm: oidDSA, Parameters: asn1.RawValue{FullBytes: params}},
		PublicKey: asn1.BitString{Bytes: y, BitLength: 8 * len(y)},
	})
}

// Signer holds one key per scheme and answers requests.
type Signer struct {
	keys  map[string]*Key
	order []string
}

// NewSigner generates a key for each scheme.
func NewSigner(schemes []scheme.SignScheme) (*Signer, error) {
	s := &Signer{keys: map[string]*Key{}}
	for _, sc := range schemes {
		k, err := NewKey(sc)
		if err != nil {
			return nil, err
		}
		name := sc.Info().Name
		if _, dup := s.keys[name]; !dup {
			s.order = append(s.order, name)
		}
		s.keys[name] = k
	}
	return s, nil
}

// Key returns the key for a scheme name (as the registry spells it).
func (s *Signer) Key(name string) (*Key, bool) {
	k, ok := s.keys[name]
	return k, ok
}

// Answer handles one message: the response to send (nil for a message
// a signer never receives, which the server answers by closing).
func (s *Signer) Answer(m Message, received time.Time, maxDoc int) Message {
	switch m := m.(type) {
	case KeyRequest:
		k, ok := s.keys[m.Scheme]
		if !ok {
			return KeyResponse{Status: StatusUnknownScheme, Scheme: m.Scheme, Error: s.unknown(m.Scheme)}
		}
		return KeyResponse{Status: StatusOK, Scheme: m.Scheme, PublicKey: k.PublicDER}
	case SignRequest:
		k, ok := s.keys[m.Scheme]
		if !ok {
			return SignResponse{ID: m.ID, Status: StatusUnknownScheme, Error: s.unknown(m.Scheme)}
		}
		if len(m.Document) > maxDoc {
			return SignResponse{ID: m.ID, Status: StatusTooLarge,
				Error: fmt.Sprintf("document of %d bytes: this signer accepts at most %d", len(m.Document), maxDoc)}
		}
		sig, err := k.Sign(m.Document)
		if err != nil {
			return SignResponse{ID: m.ID, Status: StatusSignFailed, Error: err.Error()}
		}
		return SignResponse{ID: m.ID, Status: StatusOK, Signature: sig.Bytes,
			HashNs: uint64(sig.Hash), SignNs: uint64(sig.Sign), CPUNs: uint64(sig.CPU),
			ServerNs: uint64(time.Since(received))}
	}
	return nil
}

func (s *Signer) unknown(name string) string {
	return fmt.Sprintf("no key for %q: this signer holds %s", name, strings.Join(s.order, ", "))
}
