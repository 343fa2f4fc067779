//go:build cgo

package mbedtls

/*
#cgo CFLAGS: -I${SRCDIR}/../internal/cprov -Werror=implicit-function-declaration
#cgo LDFLAGS: -ldl
#include "mbedtls_cc.h"
*/
import "C"

import (
	"strings"
	"unsafe"

	"github.com/cryptocost/cryptocost/scheme"
	"github.com/cryptocost/cryptocost/scheme/provider/internal/cprov"
)

var lib = &cprov.Lib{Name: Name,
	New: unsafe.Pointer(C.mc_new), Run: unsafe.Pointer(C.mc_run), Output: unsafe.Pointer(C.mc_output),
	Free: unsafe.Pointer(C.mc_free), Keypair: unsafe.Pointer(C.mc_keypair), Public: unsafe.Pointer(C.mc_public),
	Null: unsafe.Pointer(C.mc_null)}

func init() {
	scheme.RegisterCProvider(scheme.CProvider{Name: Name, Description: description, Package: debianPackage,
		Load: func() (string, []scheme.Scheme, error) { return lib.Load(unsafe.Pointer(C.mc_load), entries) }, NullCall: lib.NullCall()})
}

func entries() []cprov.Entry {
	e := []cprov.Entry{}
	add := func(name string, impl any) { e = append(e, cprov.Entry{Name: name, Impl: impl}) }
	for name, alg := range map[string]string{
		"MD5": "MD5", "SHA-1": "SHA1", "SHA-224": "SHA224", "SHA-256": "SHA256", "SHA-384": "SHA384",
		"SHA-512": "SHA512", "RIPEMD-160": "RIPEMD160",
	} {
		add(name, lib.Hash(alg))
	}
	for name, alg := range map[string]string{
		"HMAC-SHA-1": "HMAC:SHA1", "HMAC-SHA-256": "HMAC:SHA256", "HMAC-SHA-512": "HMAC:SHA512",
		"AES-128-CMAC": "CMAC:AES-128-ECB", "AES-256-CMAC": "CMAC:AES-256-ECB", "Poly1305": "POLY1305",
	} {
		add(name, lib.MAC(alg))
	}
	modes := func(prefix string, ms ...string) any {
		return lib.Block(ms, func(m string) string { return prefix + strings.ToUpper(m) })
	}
	add("AES-128", modes("AES-128-", "ecb", "cbc", "ofb", "ctr"))
	add("AES-192", modes("AES-192-", "ecb", "cbc", "ofb", "ctr"))
	add("AES-256", modes("AES-256-", "ecb", "cbc", "ofb", "ctr"))
	add("3DES-2key", modes("DES-EDE-", "ecb", "cbc"))
	add("3DES-3key", modes("DES-EDE3-", "ecb", "cbc"))
	add("Blowfish-128", modes("BLOWFISH-", "ecb", "cbc", "ctr"))
	for name, alg := range map[string]string{
		"AES-128-GCM": "AES-128-GCM", "AES-256-GCM": "AES-256-GCM", "ChaCha20-Poly1305": "CHACHA20-POLY1305",
		"AES-128-CCM": "AES-128-CCM:16", "AES-128-CCM-8": "AES-128-CCM:8",
	} {
		add(name, lib.AEAD(alg))
	}
	add("ChaCha20", lib.Stream("CHACHA20"))
	for _, c := range []string{"224", "256", "384", "521"} {
		for _, h := range []string{"256", "384", "512"} {
			add("ECDSA-P"+c+"-SHA"+h, lib.Sign("ECDSA:P-"+c+":SHA"+h))
		}
	}
	add("X25519", lib.Agreement("X25519"))
	for _, c := range []string{"256", "384", "521"} {
		add("ECDH-P"+c, lib.Agreement("ECDH:P-"+c))
	}
	for _, c := range cprov.ExtraCurves {
		add(c.ECDSA(), lib.Sign("ECDSA:"+c.Name+":"+c.Hash))
		add(c.ECDH(), lib.Agreement("ECDH:"+c.Name))
	}
	return e
}
