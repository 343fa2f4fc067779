package probe

import (
	"crypto/sha256"
	"encoding/hex"
	"math/big"
)

// knownPrimes names well-known finite-field DH primes by the SHA-256 of
// their big-endian bytes, so a DHE ServerKeyExchange can say which group a
// server uses. The hashes were computed from OpenSSL 3.0's built-in named
// groups (`openssl genpkey -genparam -algorithm DH -pkeyopt group:NAME`);
// TestKnownPrimes recomputes every one from OpenSSL at test time.
var knownPrimes = map[string]string{
	"9cd3b7f336872f46c09428d1bbc19877a4d440512cda8d1c1cf0cd6e33698966": "ffdhe2048 (RFC 7919)",
	"0eaf67db3a839156d5013494a5318a772b5697d270d721f37f092efc69ea5a17": "ffdhe3072 (RFC 7919)",
	"4648414224ac881b3d0dc59b466f96d06a558278776807797ecf1f66ff397b3e": "ffdhe4096 (RFC 7919)",
	"227ac9066b3ddd9e193670cda2388fa884f65ba0cf98b742d1fe77a6687c79c7": "ffdhe6144 (RFC 7919)",
	"770b14efaf6f049929c523113b3fa99a8d11dab1b18af3609590122075d19833": "ffdhe8192 (RFC 7919)",
	"64fcc83ec403930bf18393dbc883ccaa1fbb08ac876f77f7aa99748ca945019b": "MODP 1536 (RFC 3526 §2)",
	"d66436f79bbd6b2e38c0ffbd079be904d2641415e2e67140e09448be9a60890e": "MODP 2048 (RFC 3526 §3)",
	"48cf8b092fbce4359d9871abf74f98e25b6163379eaa15cd9087e800c6d1c55c": "MODP 3072 (RFC 3526 §4)",
	"4ee95187682bcb230ad26a95205f6920e84708f6251b3894329b09ec23919e33": "MODP 4096 (RFC 3526 §5)",
	"d1bfe6d0925ce7e4da262b62861514a7755e35831e429f343e7b864848657efd": "MODP 6144 (RFC 3526 §6)",
	"39ab4feab950a3128fb71accb9fc3965d857012e081998a85996e3ea8b3c3bcf": "MODP 8192 (RFC 3526 §7)",
	"44c55cfee5c075927cf682da5b681bdecbd5c3eb0784c14f5dce7610f0ef133d": "1024-bit MODP with 160-bit subgroup (RFC 5114 §2.1)",
	"bfe545862ca102ad1eeddb5fbfa5bf855ac4995c56a8b408ce3fe099dce93a9d": "2048-bit MODP with 224-bit subgroup (RFC 5114 §2.2)",
	"0b7835722cb619827610c2549fdda5587421686c4409a13865e76225522ddcc9": "2048-bit MODP with 256-bit subgroup (RFC 5114 §2.3)",
}

// rfc7919Groups maps the RFC 7919 group names to their supported_groups
// code points (RFC 7919 §2).
var rfc7919Groups = map[string]uint16{
	"ffdhe2048 (RFC 7919)": 256, "ffdhe3072 (RFC 7919)": 257, "ffdhe4096 (RFC 7919)": 258,
	"ffdhe6144 (RFC 7919)": 259, "ffdhe8192 (RFC 7919)": 260,
}

// primeName names a prime, or returns "" when it is not a well-known one
// (a server-generated group, e.g. from `openssl dhparam`).
func primeName(p []byte) string {
	p = new(big.Int).SetBytes(p).Bytes() // strip leading zeros
	sum := sha256.Sum256(p)
	return knownPrimes[hex.EncodeToString(sum[:])]
}

// primeBits is the bit length of a big-endian prime.
func primeBits(p []byte) int { return new(big.Int).SetBytes(p).BitLen() }
