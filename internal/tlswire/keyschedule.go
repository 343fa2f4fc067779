package tlswire

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"

	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/cryptobyte"
)

// TLS 1.3 cipher suites (RFC 8446 §B.4).
const (
	TLS_AES_128_GCM_SHA256       uint16 = 0x1301
	TLS_AES_256_GCM_SHA384       uint16 = 0x1302
	TLS_CHACHA20_POLY1305_SHA256 uint16 = 0x1303
)

// Suite13 is what the key schedule and record protection need of a TLS
// 1.3 cipher suite: its hash, AEAD and key length (RFC 8446 §B.4). The
// CCM suites are absent: Go's standard library has no CCM.
type Suite13 struct {
	ID     uint16
	KeyLen int
	Hash   func() hash.Hash
	AEAD   func(key []byte) (cipher.AEAD, error)
}

var suites13 = map[uint16]Suite13{
	TLS_AES_128_GCM_SHA256:       {TLS_AES_128_GCM_SHA256, 16, sha256.New, aesGCM},
	TLS_AES_256_GCM_SHA384:       {TLS_AES_256_GCM_SHA384, 32, sha512.New384, aesGCM},
	TLS_CHACHA20_POLY1305_SHA256: {TLS_CHACHA20_POLY1305_SHA256, 32, sha256.New, chacha20poly1305.New},
}

// Suite13ByID returns a TLS 1.3 suite this package can protect records
// with.
func Suite13ByID(id uint16) (Suite13, bool) {
	s, ok := suites13[id]
	return s, ok
}

func aesGCM(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}

// ExpandLabel is HKDF-Expand-Label (RFC 8446 §7.1): HKDF-Expand with the
// info HkdfLabel = uint16 length || opaque label<7..255> = "tls13 " + label
// || opaque context<0..255>.
func ExpandLabel(h func() hash.Hash, secret []byte, label string, context []byte, length int) ([]byte, error) {
	info, err := hkdfLabel(label, context, length)
	if err != nil {
		return nil, err
	}
	return hkdf.Expand(h, secret, string(info), length)
}

// hkdfLabel is HKDF-Expand-Label's info (RFC 8446 §7.1).
func hkdfLabel(label string, context []byte, length int) ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint16(uint16(length))
	b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte("tls13 " + label)) })
	b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(context) })
	return b.Bytes()
}

// TrafficKeys derives a record key and IV from a traffic secret (RFC 8446
// §7.3: key = HKDF-Expand-Label(secret, "key", "", key_length), iv =
// HKDF-Expand-Label(secret, "iv", "", 12)). Both are shorter than the
// hash, so each is HKDF-Expand's first block alone, T(1) = HMAC(secret,
// info || 0x01) (RFC 5869 §2.3), from one HMAC keyed once: the TLS lab
// derives four key sets per connection it analyses. TestTrafficKeys
// checks it against RFC 8448's and tls13.xargs.org's keys and against
// ExpandLabel.
func TrafficKeys(suite uint16, secret []byte) (key, iv []byte, err error) {
	s, ok := suites13[suite]
	if !ok {
		return nil, nil, fmt.Errorf("TLS 1.3 cipher suite %#04x unknown", suite)
	}
	mac := hmac.New(s.Hash, secret)
	// One allocation for both: key || iv.
	out := make([]byte, 0, s.KeyLen+12+mac.Size())
	out = expandFirstBlock(mac, keyInfo[s.KeyLen], out)[:s.KeyLen]
	out = expandFirstBlock(mac, ivInfo, out)[:s.KeyLen+12]
	return out[:s.KeyLen:s.KeyLen], out[s.KeyLen:], nil
}

// keyInfo and ivInfo are HKDF-Expand-Label's info (HkdfLabel) for the
// traffic key of each key length and for the 12-byte IV, built once.
var (
	keyInfo = func() map[int][]byte {
		m := map[int][]byte{}
		for _, s := range suites13 {
			m[s.KeyLen], _ = hkdfLabel("key", nil, s.KeyLen)
		}
		return m
	}()
	ivInfo, _ = hkdfLabel("iv", nil, 12)
)

// expandFirstBlock appends T(1) = HMAC(secret, info || 0x01), HKDF-Expand's
// first block (RFC 5869 §2.3), to out; mac is keyed by the secret, and the
// caller cuts the block to its length (at most the hash's size).
func expandFirstBlock(mac hash.Hash, info, out []byte) []byte {
	mac.Reset()
	mac.Write(info)
	mac.Write([]byte{1})
	return mac.Sum(out)
}

// KeySchedule is the TLS 1.3 key schedule of one cipher suite's hash
// (RFC 8446 §7.1):
//
//	early     = HKDF-Extract(0, PSK)
//	binder    = Derive-Secret(early, "res binder", "")
//	handshake = HKDF-Extract(Derive-Secret(early, "derived", ""), (EC)DHE)
//	            — psk_ke has no (EC)DHE: the input is Hash.length zeros
//	c/s hs    = Derive-Secret(handshake, "c hs traffic" / "s hs traffic", CH…SH)
//	master    = HKDF-Extract(Derive-Secret(handshake, "derived", ""), 0)
//	c/s ap    = Derive-Secret(master, "c ap traffic" / "s ap traffic", CH…server Finished)
//
// RFC 8448 §3 and §4 are its known answers (keyschedule_test.go).
type KeySchedule struct {
	Hash func() hash.Hash
}

// ScheduleFor returns the key schedule of a TLS 1.3 cipher suite.
func ScheduleFor(suite uint16) (KeySchedule, error) {
	s, ok := suites13[suite]
	if !ok {
		return KeySchedule{}, fmt.Errorf("TLS 1.3 cipher suite %#04x unknown", suite)
	}
	return KeySchedule{Hash: s.Hash}, nil
}

// Size is Hash.length.
func (k KeySchedule) Size() int { return k.Hash().Size() }

// Extract is HKDF-Extract(salt, ikm); a nil salt or ikm is the string of
// Hash.length zeros RFC 8446 §7.1 writes as "0".
func (k KeySchedule) Extract(salt, ikm []byte) []byte {
	if ikm == nil {
		ikm = make([]byte, k.Size())
	}
	if salt == nil {
		salt = make([]byte, k.Size())
	}
	prk, err := hkdf.Extract(k.Hash, ikm, salt)
	if err != nil {
		panic(err) // only for FIPS-restricted key sizes, which these are not
	}
	return prk
}

// TranscriptHash is Transcript-Hash(messages): the hash of the handshake
// messages concatenated, headers included (RFC 8446 §4.4.1).
func (k KeySchedule) TranscriptHash(messages ...[]byte) []byte {
	h := k.Hash()
	for _, m := range messages {
		h.Write(m)
	}
	return h.Sum(nil)
}

// Expand is HKDF-Expand-Label(secret, label, context, Hash.length).
func (k KeySchedule) Expand(secret []byte, label string, context []byte) []byte {
	out, err := ExpandLabel(k.Hash, secret, label, context, k.Size())
	if err != nil {
		panic(err) // labels and contexts here are short and fixed
	}
	return out
}

// DeriveSecret is Derive-Secret(secret, label, messages) =
// HKDF-Expand-Label(secret, label, Transcript-Hash(messages), Hash.length).
func (k KeySchedule) DeriveSecret(secret []byte, label string, messages ...[]byte) []byte {
	return k.Expand(secret, label, k.TranscriptHash(messages...))
}

// VerifyData is a Finished message's (and a PSK binder's) MAC:
// HMAC(finished_key, transcript hash), finished_key =
// HKDF-Expand-Label(base key, "finished", "", Hash.length) (RFC 8446
// §4.4.4, §4.2.11.2).
func (k KeySchedule) VerifyData(baseKey, transcriptHash []byte) []byte {
	mac := hmac.New(k.Hash, k.Expand(baseKey, "finished", nil))
	mac.Write(transcriptHash)
	return mac.Sum(nil)
}

// PSKSecrets are the secrets of one PSK resumption, derived step by step
// as the handshake's messages arrive.
type PSKSecrets struct {
	Early, BinderKey                     []byte
	Handshake, ClientHS, ServerHS        []byte
	Master, ClientTraffic, ServerTraffic []byte
}

// EarlySecrets starts the schedule from the PSK: the early secret and the
// resumption binder key.
func (k KeySchedule) EarlySecrets(psk []byte) *PSKSecrets {
	early := k.Extract(nil, psk)
	return &PSKSecrets{Early: early, BinderKey: k.DeriveSecret(early, "res binder")}
}

// HandshakeSecrets derives the handshake secret and both handshake traffic
// secrets from the transcript hash of ClientHello…ServerHello; dhe is the
// (EC)DHE shared secret, nil for psk_ke.
func (k KeySchedule) HandshakeSecrets(s *PSKSecrets, dhe, helloHash []byte) {
	s.Handshake = k.Extract(k.DeriveSecret(s.Early, "derived"), dhe)
	s.ClientHS = k.Expand(s.Handshake, "c hs traffic", helloHash)
	s.ServerHS = k.Expand(s.Handshake, "s hs traffic", helloHash)
}

// ApplicationSecrets derives the master secret and traffic secret 0 of each
// side from the transcript hash of ClientHello…server Finished.
func (k KeySchedule) ApplicationSecrets(s *PSKSecrets, serverFinishedHash []byte) {
	s.Master = k.Extract(k.DeriveSecret(s.Handshake, "derived"), nil)
	s.ClientTraffic = k.Expand(s.Master, "c ap traffic", serverFinishedHash)
	s.ServerTraffic = k.Expand(s.Master, "s ap traffic", serverFinishedHash)
}
