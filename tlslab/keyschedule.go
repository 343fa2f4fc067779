package tlslab

import (
	"crypto/hkdf"
	"crypto/hmac"
	"fmt"
	"hash"
)

// keySchedule is the TLS 1.3 key schedule of one cipher suite's hash
// (RFC 8446 §7.1), the pieces a PSK-only resumption needs:
//
//	early     = HKDF-Extract(0, PSK)
//	binder    = Derive-Secret(early, "res binder", "")
//	handshake = HKDF-Extract(Derive-Secret(early, "derived", ""), (EC)DHE)
//	            — psk_ke has no (EC)DHE: the input is Hash.length zeros
//	c/s hs    = Derive-Secret(handshake, "c hs traffic" / "s hs traffic", CH…SH)
//	master    = HKDF-Extract(Derive-Secret(handshake, "derived", ""), 0)
//	c/s ap    = Derive-Secret(master, "c ap traffic" / "s ap traffic", CH…server Finished)
//
// crypto/tls keeps its own schedule internal (crypto/internal/fips140/tls13),
// so the lab has this small one; RFC 8448 §3 and §4 are its known answers
// (keyschedule_test.go).
type keySchedule struct {
	hash func() hash.Hash
}

// scheduleFor returns the key schedule of a TLS 1.3 cipher suite.
func scheduleFor(suite uint16) (keySchedule, error) {
	s, ok := suites13[suite]
	if !ok {
		return keySchedule{}, fmt.Errorf("TLS 1.3 cipher suite %#04x unknown", suite)
	}
	return keySchedule{hash: s.hash}, nil
}

// size is Hash.length.
func (k keySchedule) size() int { return k.hash().Size() }

// extract is HKDF-Extract(salt, ikm); a nil salt or ikm is the string of
// Hash.length zeros RFC 8446 §7.1 writes as "0".
func (k keySchedule) extract(salt, ikm []byte) []byte {
	if ikm == nil {
		ikm = make([]byte, k.size())
	}
	if salt == nil {
		salt = make([]byte, k.size())
	}
	prk, err := hkdf.Extract(k.hash, ikm, salt)
	if err != nil {
		panic(err) // only for FIPS-restricted key sizes, which these are not
	}
	return prk
}

// transcriptHash is Transcript-Hash(messages): the hash of the handshake
// messages concatenated, headers included (RFC 8446 §4.4.1).
func (k keySchedule) transcriptHash(messages ...[]byte) []byte {
	h := k.hash()
	for _, m := range messages {
		h.Write(m)
	}
	return h.Sum(nil)
}

// expand is HKDF-Expand-Label(secret, label, context, Hash.length).
func (k keySchedule) expand(secret []byte, label string, context []byte) []byte {
	out, err := expandLabel(k.hash, secret, label, context, k.size())
	if err != nil {
		panic(err) // labels and contexts here are short and fixed
	}
	return out
}

// deriveSecret is Derive-Secret(secret, label, messages) =
// HKDF-Expand-Label(secret, label, Transcript-Hash(messages), Hash.length).
func (k keySchedule) deriveSecret(secret []byte, label string, messages ...[]byte) []byte {
	return k.expand(secret, label, k.transcriptHash(messages...))
}

// verifyData is a Finished message's (and a PSK binder's) MAC:
// HMAC(finished_key, transcript hash), finished_key =
// HKDF-Expand-Label(base key, "finished", "", Hash.length) (RFC 8446
// §4.4.4, §4.2.11.2).
func (k keySchedule) verifyData(baseKey, transcriptHash []byte) []byte {
	mac := hmac.New(k.hash, k.expand(baseKey, "finished", nil))
	mac.Write(transcriptHash)
	return mac.Sum(nil)
}

// pskSecrets are the secrets of one PSK resumption, derived step by step
// as the handshake's messages arrive.
type pskSecrets struct {
	early, binderKey                     []byte
	handshake, clientHS, serverHS        []byte
	master, clientTraffic, serverTraffic []byte
}

// earlySecrets starts the schedule from the PSK: the early secret and the
// resumption binder key.
func (k keySchedule) earlySecrets(psk []byte) *pskSecrets {
	early := k.extract(nil, psk)
	return &pskSecrets{early: early, binderKey: k.deriveSecret(early, "res binder")}
}

// handshakeSecrets derives the handshake secret and both handshake traffic
// secrets from the transcript hash of ClientHello…ServerHello; dhe is the
// (EC)DHE shared secret, nil for psk_ke.
func (k keySchedule) handshakeSecrets(s *pskSecrets, dhe, helloHash []byte) {
	s.handshake = k.extract(k.deriveSecret(s.early, "derived"), dhe)
	s.clientHS = k.expand(s.handshake, "c hs traffic", helloHash)
	s.serverHS = k.expand(s.handshake, "s hs traffic", helloHash)
}

// applicationSecrets derives the master secret and traffic secret 0 of each
// side from the transcript hash of ClientHello…server Finished.
func (k keySchedule) applicationSecrets(s *pskSecrets, serverFinishedHash []byte) {
	s.master = k.extract(k.deriveSecret(s.handshake, "derived"), nil)
	s.clientTraffic = k.expand(s.master, "c ap traffic", serverFinishedHash)
	s.serverTraffic = k.expand(s.master, "s ap traffic", serverFinishedHash)
}
