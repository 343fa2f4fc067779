//go:build cgo

package gcrypt

/*
#cgo CFLAGS: -I${SRCDIR}/../internal/cprov -Werror=implicit-function-declaration
#cgo LDFLAGS: -ldl
#include "gcrypt_cc.h"
*/
import "C"

import (
	"strconv"
	"strings"
	"unsafe"

	"github.com/cryptocost/cryptocost/scheme"
	"github.com/cryptocost/cryptocost/scheme/provider/internal/cprov"
)

var lib = &cprov.Lib{Name: Name,
	New: unsafe.Pointer(C.gc_new), Run: unsafe.Pointer(C.gc_run), Output: unsafe.Pointer(C.gc_output),
	Free: unsafe.Pointer(C.gc_free), Keypair: unsafe.Pointer(C.gc_keypair), Public: unsafe.Pointer(C.gc_public),
	Null: unsafe.Pointer(C.gc_null)}

func init() {
	scheme.RegisterCProvider(scheme.CProvider{Name: Name, Description: description, Package: debianPackage,
		Load: func() (string, []scheme.Scheme, error) { return lib.Load(unsafe.Pointer(C.gc_load), entries) }, NullCall: lib.NullCall()})
}

func entries() []cprov.Entry {
	e := []cprov.Entry{}
	add := func(name string, impl any) { e = append(e, cprov.Entry{Name: name, Impl: impl}) }
	for name, alg := range map[string]string{
		"MD5": "MD5", "SHA-1": "SHA1", "SHA-224": "SHA224", "SHA-256": "SHA256", "SHA-384": "SHA384",
		"SHA-512": "SHA512", "SHA-512/256": "SHA512_256", "SHA3-224": "SHA3-224", "SHA3-256": "SHA3-256",
		"SHA3-384": "SHA3-384", "SHA3-512": "SHA3-512", "BLAKE2b-512": "BLAKE2B_512", "BLAKE2s-256": "BLAKE2S_256",
		"RIPEMD-160": "RMD160", "Whirlpool": "WHIRLPOOL", "Tiger": "TIGER1", "Tiger2": "TIGER2",
	} {
		add(name, lib.Hash(alg))
	}
	for name, alg := range map[string]string{
		"HMAC-SHA-1": "HMAC_SHA1", "HMAC-SHA-256": "HMAC_SHA256", "HMAC-SHA-512": "HMAC_SHA512",
		"AES-128-CMAC": "CMAC_AES", "AES-256-CMAC": "CMAC_AES", "Poly1305": "POLY1305",
	} {
		add(name, lib.MAC(alg))
	}
	for name, c := range map[string]string{
		"AES-128": "AES128", "AES-192": "AES192", "AES-256": "AES256", "3DES-3key": "3DES",
		"Blowfish-128": "BLOWFISH", "CAST5": "CAST5", "Twofish-128": "TWOFISH128", "Twofish-256": "TWOFISH",
		"Serpent-128": "SERPENT128", "Serpent-256": "SERPENT256", "IDEA": "IDEA", "SM4": "SM4",
	} {
		add(name, lib.Block([]string{"ecb", "cbc", "ofb", "ctr"}, func(m string) string { return c + ":" + strings.ToUpper(m) }))
	}
	for name, alg := range map[string]string{
		"AES-128-GCM": "AES128:GCM", "AES-256-GCM": "AES256:GCM", "ChaCha20-Poly1305": "CHACHA20:POLY1305",
		"AES-128-CCM": "AES128:CCM:16", "AES-128-CCM-8": "AES128:CCM:8",
		"AES-128-GCM-SIV": "AES128:GCM_SIV", "AES-256-GCM-SIV": "AES256:GCM_SIV",
	} {
		add(name, lib.AEAD(alg))
	}
	add("ChaCha20", lib.Stream("CHACHA20:STREAM"))
	add("Salsa20", lib.Stream("SALSA20:STREAM"))
	add("RC4-128", lib.Stream("ARCFOUR:STREAM"))
	add("Ed25519", lib.Sign("ED25519"))
	for _, c := range []struct{ bits, bytes string }{{"224", "28"}, {"256", "32"}, {"384", "48"}, {"521", "66"}} {
		for _, h := range []string{"256", "384", "512"} {
			add("ECDSA-P"+c.bits+"-SHA"+h, lib.Sign("ECDSA:NIST P-"+c.bits+":SHA"+h+":"+c.bytes))
		}
	}
	for _, c := range cprov.ExtraCurves { // ECDSA only: see the package doc
		add(c.ECDSA(), lib.Sign("ECDSA:"+c.Name+":"+c.Hash+":"+strconv.Itoa(c.Bytes)))
	}
	add("X25519", lib.Agreement("X25519"))
	add("X448", lib.Agreement("X448"))
	return e
}
