package scheme

import (
	"crypto"
	"crypto/cipher"
	"hash"
	"io"
)

// The family interfaces. Each embeds Scheme; a family's file (mac.go,
// block.go, ...) implements it for its algorithms and registers them in init.
// Keys of the asymmetric families are opaque values of the scheme's own
// types: pass only keys the same scheme generated.

// MACScheme is a message authentication code. Info().Sizes.Key is the key
// size and Info().Sizes.Output the tag size.
type MACScheme interface {
	Scheme
	NewMAC(key []byte) (hash.Hash, error)
}

// BlockScheme is a block cipher; the engine builds ECB, CBC, OFB and CTR on
// it. Info().Sizes.Key and .Block give the key and block sizes.
type BlockScheme interface {
	Scheme
	NewCipher(key []byte) (cipher.Block, error)
}

// StreamScheme is a stream cipher keyed with a key and an IV (nonce).
type StreamScheme interface {
	Scheme
	NewStream(key, iv []byte) (cipher.Stream, error)
}

// AEADScheme is authenticated encryption with associated data.
type AEADScheme interface {
	Scheme
	NewAEAD(key []byte) (cipher.AEAD, error)
}

// PKEScheme is public-key encryption of a short message (a symmetric key or
// a digest: the seed study used 256-bit plaintexts).
type PKEScheme interface {
	Scheme
	GenerateKey() (crypto.PublicKey, crypto.PrivateKey, error)
	Encrypt(pub crypto.PublicKey, msg []byte) ([]byte, error)
	Decrypt(priv crypto.PrivateKey, ciphertext []byte) ([]byte, error)
}

// SignScheme is a signature scheme over whole messages: Sign hashes the
// message as the scheme prescribes (SHA-256 for ECDSA-P256-SHA256, nothing
// separate for Ed25519) and signs it, so a timed signature of a document
// includes hashing the document.
type SignScheme interface {
	Scheme
	GenerateKey() (crypto.PublicKey, crypto.PrivateKey, error)
	Sign(priv crypto.PrivateKey, msg []byte) ([]byte, error)
	Verify(pub crypto.PublicKey, msg, sig []byte) bool
}

// KEMScheme is a key encapsulation mechanism.
type KEMScheme interface {
	Scheme
	GenerateKey() (crypto.PublicKey, crypto.PrivateKey, error)
	Encapsulate(pub crypto.PublicKey) (ciphertext, sharedSecret []byte, err error)
	Decapsulate(priv crypto.PrivateKey, ciphertext []byte) (sharedSecret []byte, err error)
}

// AgreementScheme is a Diffie-Hellman style key agreement.
type AgreementScheme interface {
	Scheme
	GenerateKey() (crypto.PublicKey, crypto.PrivateKey, error)
	SharedSecret(priv crypto.PrivateKey, peer crypto.PublicKey) ([]byte, error)
}

// RNGScheme is a source of random bytes.
type RNGScheme interface {
	Scheme
	Reader() io.Reader
}
