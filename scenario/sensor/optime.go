package sensor

import (
	"crypto/rand"
	"fmt"
	"time"

	"github.com/cryptocost/cryptocost/scheme"
)

// TimeSeparately times an operation the DTLS stack runs inside its
// handshake or record layer, where it cannot be timed in place: the same
// primitive from the scheme registry (its known-answer test passed first),
// reps times on this machine, one sample per operation. size is the input
// (a record's plaintext for AEADs, the signed handshake data for a
// verification).
func TimeSeparately(name, op string, size, reps int) ([]float64, string, error) {
	s, err := scheme.Lookup(name)
	if err != nil {
		return nil, "", err
	}
	if err := s.KAT(); err != nil {
		return nil, "", fmt.Errorf("%s: known-answer test failed, not timed: %w", name, err)
	}
	var run func() error
	msg := make([]byte, size)
	rand.Read(msg)
	switch sc := s.(type) {
	case scheme.AgreementScheme:
		pub, priv, err := sc.GenerateKey()
		if err != nil {
			return nil, "", err
		}
		switch op {
		case "keygen":
			run = func() error { _, _, err := sc.GenerateKey(); return err }
		case "derive":
			run = func() error { _, err := sc.SharedSecret(priv, pub); return err }
		}
	case scheme.SignScheme:
		pub, priv, err := sc.GenerateKey()
		if err != nil {
			return nil, "", err
		}
		sig, err := sc.Sign(priv, msg)
		if err != nil {
			return nil, "", err
		}
		switch op {
		case "sign":
			run = func() error { _, err := sc.Sign(priv, msg); return err }
		case "verify":
			run = func() error {
				if !sc.Verify(pub, msg, sig) {
					return fmt.Errorf("%s: a valid signature did not verify", name)
				}
				return nil
			}
		}
	case scheme.AEADScheme:
		key := make([]byte, s.Info().Sizes.Key)
		aead, err := sc.NewAEAD(key)
		if err != nil {
			return nil, "", err
		}
		nonce := make([]byte, aead.NonceSize())
		ad := make([]byte, dtlsHeaderBytes)
		ct := aead.Seal(nil, nonce, msg, ad)
		buf := make([]byte, 0, len(ct))
		switch op {
		case "seal":
			run = func() error { aead.Seal(buf[:0], nonce, msg, ad); return nil }
		case "open":
			run = func() error { _, err := aead.Open(buf[:0], nonce, ct, ad); return err }
		}
	}
	if run == nil {
		return nil, "", fmt.Errorf("cannot time %s %s", name, op)
	}
	out := make([]float64, 0, reps)
	for range reps {
		start := time.Now()
		if err := run(); err != nil {
			return nil, "", err
		}
		out = append(out, float64(time.Since(start).Nanoseconds()))
	}
	return out, fmt.Sprintf("timed separately: %d runs of %s %s on %d-byte inputs on this machine (%s; known-answer test passed), since the DTLS stack runs it out of reach",
		reps, s.Info().ID(), op, size, s.Info().Provider), nil
}
