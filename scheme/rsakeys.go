package scheme

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"embed"
	"encoding/pem"
	"fmt"
	"io/fs"
)

// RSA test keys. Timing RSA signatures needs private keys of every size, and
// generating them is slow (seconds for RSA-4096, minutes for RSA-15360), so
// the keys that sign and verify use are generated once and embedded. They were
// made with
//
//	openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:N -pkeyopt rsa_keygen_pubexp:65537
//
// (OpenSSL 3.0, PKCS#8 PEM, public exponent 65537; testdata/keys/generate.sh),
// ten per size up to 4096 bits so that the seed002 method's ten keys are
// distinct, two for 7680 and 15360 bits: variant i uses key i mod the
// number of keys of that size (Operation.DistinctKeys says how many). They are published with the source code: TEST keys,
// for timing only, never for protecting anything. The keygen operation itself
// of course generates fresh keys (rsaGenerateKey).
//
//go:embed testdata/keys/rsa-*.pem
var rsaKeyFiles embed.FS

// rsaPublicExponent is the exponent of every key here: 65537 = 2^16+1, the
// value FIPS 186-5 §A.1.1 and RFC 8017 practice use, and the one the embedded
// keys were made with.
const rsaPublicExponent = 65537

// rsaTestKeyCount is the number of embedded keys of the given modulus size.
func rsaTestKeyCount(bits int) int {
	names, _ := fs.Glob(rsaKeyFiles, fmt.Sprintf("testdata/keys/rsa-%d-*.pem", bits))
	return len(names)
}

// rsaTestKey returns embedded test key variant mod rsaTestKeyCount(bits) of
// the given size. Parsing is not cached: Prepare calls it outside the timed
// loop, and even the RSA-15360 keys parse in milliseconds.
func rsaTestKey(bits, variant int) (*rsa.PrivateKey, error) {
	n := rsaTestKeyCount(bits)
	if n == 0 {
		return nil, fmt.Errorf("no embedded RSA-%d test key (have them for 512, 768, 1024, 2048, 3072, 4096, 7680 and 15360 bits)", bits)
	}
	i := (variant%n + n) % n
	name := fmt.Sprintf("testdata/keys/rsa-%d-%d.pem", bits, i)
	data, err := rsaKeyFiles.ReadFile(name)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("%s: not a PKCS#8 PEM private key", name)
	}
	key, err := rsaParsePKCS8(block.Bytes, bits)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if key.N.BitLen() != bits || key.E != rsaPublicExponent {
		return nil, fmt.Errorf("%s: a %d-bit key with e=%d, want %d bits and e=%d", name, key.N.BitLen(), key.E, bits, rsaPublicExponent)
	}
	return key, nil
}

// rsaParsePKCS8 parses a PKCS#8 DER RSA private key of the given size.
func rsaParsePKCS8(der []byte, bits int) (*rsa.PrivateKey, error) {
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, rsaSmallKeyError(bits, err)
	}
	key, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("a %T in PKCS#8, want an RSA key", k)
	}
	return key, nil
}

// rsaGenerateKey generates a fresh key pair with e = 65537.
func rsaGenerateKey(bits int) (*rsa.PrivateKey, error) {
	key, err := rsa.GenerateKey(rand.Reader, bits)
	return key, rsaSmallKeyError(bits, err)
}

// rsaSmallKeyError explains crypto/rsa's refusal of keys below 1024 bits
// (Go 1.24 and later; see the crypto/rsa package documentation, "Minimum key
// size"). RSA-512 and RSA-768 are here because the seed002 study generated
// them; the cryptocost command and this package's tests set the GODEBUG, other
// programs must set it themselves.
func rsaSmallKeyError(bits int, err error) error {
	if err == nil || bits >= 1024 {
		return err
	}
	return fmt.Errorf("RSA-%d: %w (Go refuses RSA keys below 1024 bits unless GODEBUG=rsa1024min=0 is set: "+
		"the cryptocost command sets it; elsewhere set it in the environment or with a //go:debug rsa1024min=0 directive)", bits, err)
}

// rsaPKCS1PublicKeySize is the length of the PKCS#1 RSAPublicKey DER encoding
// (RFC 8017 §A.1.1) of a key with a bits-long modulus and e = 65537: fixed,
// because the modulus has its top bit set.
func rsaPKCS1PublicKeySize(bits int) int {
	return signDERLength(signDERLength(bits/8+1) + signDERLength(3))
}

// rsaPKCS1PrivateKeyMax bounds the length of the PKCS#1 RSAPrivateKey DER
// encoding (RFC 8017 §A.1.2) of a two-prime key with e = 65537: version, n,
// e, d < n, and p, q, dP, dQ, qInv < 2^(bits/2). Integers shorter than their
// bound make real encodings a few bytes shorter, so this is a maximum.
func rsaPKCS1PrivateKeyMax(bits int) int {
	full, half := signDERLength(bits/8+1), signDERLength((bits/2+7)/8+1)
	return signDERLength(signDERLength(1) + full + signDERLength(3) + full + 5*half)
}
