//go:build cgo

package cprov

/*
#include <stdlib.h>
#include <string.h>
#include "ccjob.h"

static cc_job *cc_call_new(void *f, int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen) {
	return ((cc_new_fn)f)(kind, alg, in, nin, err, errlen);
}
static int cc_call_run(void *f, cc_job *j, long n) { return ((cc_run_fn)f)(j, n); }
static const uint8_t *cc_call_output(void *f, cc_job *j, size_t *n) { return ((cc_output_fn)f)(j, n); }
static void cc_call_free(void *f, cc_job *j) { ((cc_free_fn)f)(j); }
static int cc_call_keypair(void *f, const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen) {
	return ((cc_keypair_fn)f)(alg, pub, publen, priv, privlen, err, errlen);
}
static int cc_call_public(void *f, const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen) {
	return ((cc_public_fn)f)(alg, priv, privlen, pub, publen, err, errlen);
}
static void cc_call_null(void *f) { ((cc_null_fn)f)(); }
typedef int (*cc_load_fn)(char *version, size_t vlen, char *err, size_t errlen);
static int cc_call_load(void *f, char *version, size_t vlen, char *err, size_t errlen) {
	return ((cc_load_fn)f)(version, vlen, err, errlen);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/cryptocost/cryptocost/scheme"
)

// Lib is a provider's C job interface: pointers to its functions (C.fn
// values converted with unsafe.Pointer).
type Lib struct {
	Name                                          scheme.Provider
	New, Run, Output, Free, Keypair, Public, Null unsafe.Pointer
}

const errLen = 512

// job is a prepared C job; the C side owns its memory, released when the
// job becomes unreachable.
type job struct {
	lib *Lib
	j   *C.cc_job
	alg string
}

// newJob prepares kind on alg with copies of in (C memory: the C side
// copies again and keeps its own).
func (l *Lib) newJob(kind C.int, alg string, in ...[]byte) (*job, error) {
	calg := C.CString(alg)
	defer C.free(unsafe.Pointer(calg))
	var bufs *C.cc_buf
	if len(in) > 0 {
		bufs = (*C.cc_buf)(C.calloc(C.size_t(len(in)), C.size_t(unsafe.Sizeof(C.cc_buf{}))))
		defer C.free(unsafe.Pointer(bufs))
		arr := unsafe.Slice(bufs, len(in))
		for i, b := range in {
			if len(b) > 0 {
				p := C.CBytes(b)
				defer C.free(p)
				arr[i].p = (*C.uint8_t)(p)
			}
			arr[i].n = C.size_t(len(b))
		}
	}
	errBuf := (*C.char)(C.calloc(errLen, 1))
	defer C.free(unsafe.Pointer(errBuf))
	j := C.cc_call_new(l.New, kind, calg, bufs, C.int(len(in)), errBuf, errLen)
	if j == nil {
		return nil, fmt.Errorf("%s %s: %s", l.Name, alg, C.GoString(errBuf))
	}
	out := &job{lib: l, j: j, alg: alg}
	free := l.Free
	runtime.AddCleanup(out, func(p *C.cc_job) { C.cc_call_free(free, p) }, j)
	return out, nil
}

// ErrRejected is a verification or an open the library refused.
var ErrRejected = errors.New("rejected by the library")

func (j *job) Run(n int) error {
	rc := C.cc_call_run(j.lib.Run, j.j, C.long(n))
	runtime.KeepAlive(j)
	if rc != 0 {
		return fmt.Errorf("%s %s: %w (code %d)", j.lib.Name, j.alg, ErrRejected, int(rc))
	}
	return nil
}

func (j *job) Output() []byte {
	var n C.size_t
	p := C.cc_call_output(j.lib.Output, j.j, &n)
	runtime.KeepAlive(j)
	if p == nil || n == 0 {
		return nil
	}
	return C.GoBytes(unsafe.Pointer(p), C.int(n))
}

func jobOf(j *job, err error) (scheme.Job, error) {
	if err != nil {
		return nil, err
	}
	return j, nil
}

// Keypair generates a key pair of alg in the raw encodings.
func (l *Lib) GenerateKeyPair(alg string) (pub, priv []byte, err error) {
	calg := C.CString(alg)
	defer C.free(unsafe.Pointer(calg))
	const capacity = 1024
	buf := (*C.uint8_t)(C.calloc(2*capacity+errLen, 1))
	defer C.free(unsafe.Pointer(buf))
	pubP, privP := buf, (*C.uint8_t)(unsafe.Add(unsafe.Pointer(buf), capacity))
	errP := (*C.char)(unsafe.Add(unsafe.Pointer(buf), 2*capacity))
	publen, privlen := C.size_t(capacity), C.size_t(capacity)
	if C.cc_call_keypair(l.Keypair, calg, pubP, &publen, privP, &privlen, errP, errLen) != 0 {
		return nil, nil, fmt.Errorf("%s %s: key generation: %s", l.Name, alg, C.GoString(errP))
	}
	return C.GoBytes(unsafe.Pointer(pubP), C.int(publen)), C.GoBytes(unsafe.Pointer(privP), C.int(privlen)), nil
}

// PublicOf computes the raw public key of a raw private key.
func (l *Lib) PublicOf(alg string, priv []byte) ([]byte, error) {
	calg := C.CString(alg)
	defer C.free(unsafe.Pointer(calg))
	const capacity = 1024
	buf := (*C.uint8_t)(C.calloc(capacity+errLen, 1))
	defer C.free(unsafe.Pointer(buf))
	errP := (*C.char)(unsafe.Add(unsafe.Pointer(buf), capacity))
	cpriv := C.CBytes(priv)
	defer C.free(cpriv)
	publen := C.size_t(capacity)
	if C.cc_call_public(l.Public, calg, (*C.uint8_t)(cpriv), C.size_t(len(priv)), buf, &publen, errP, errLen) != 0 {
		return nil, fmt.Errorf("%s %s: public key: %s", l.Name, alg, C.GoString(errP))
	}
	return C.GoBytes(unsafe.Pointer(buf), C.int(publen)), nil
}

// Hash is the HashImpl of digest alg.
func (l *Lib) Hash(alg string) scheme.HashImpl {
	return scheme.HashImpl{Digest: func(msg []byte) (scheme.Job, error) { return jobOf(l.newJob(C.CC_DIGEST, alg, msg)) }}
}

// MAC is the MACImpl of alg.
func (l *Lib) MAC(alg string) scheme.MACImpl {
	return scheme.MACImpl{MAC: func(key, msg []byte) (scheme.Job, error) { return jobOf(l.newJob(C.CC_MAC, alg, key, msg)) }}
}

// AEAD is the AEADImpl of alg.
func (l *Lib) AEAD(alg string) scheme.AEADImpl {
	return scheme.AEADImpl{
		Seal: func(key, nonce, ad, pt []byte) (scheme.Job, error) {
			return jobOf(l.newJob(C.CC_SEAL, alg, key, nonce, ad, pt))
		},
		Open: func(key, nonce, ad, ct []byte) (scheme.Job, error) {
			return jobOf(l.newJob(C.CC_OPEN, alg, key, nonce, ad, ct))
		},
	}
}

// Block is the BlockImpl of a cipher whose mode algorithms are named by
// mode(m) ("AES-128-" + upper-case mode, say).
func (l *Lib) Block(modes []string, name func(mode string) string) scheme.BlockImpl {
	return scheme.BlockImpl{Modes: modes, Crypt: func(mode string, decrypt bool, key, iv, in []byte) (scheme.Job, error) {
		kind := C.int(C.CC_ENCRYPT)
		if decrypt {
			kind = C.CC_DECRYPT
		}
		return jobOf(l.newJob(kind, name(mode), key, iv, in))
	}}
}

// Stream is the StreamImpl of alg.
func (l *Lib) Stream(alg string) scheme.StreamImpl {
	return scheme.StreamImpl{XOR: func(key, iv, in []byte) (scheme.Job, error) {
		return jobOf(l.newJob(C.CC_ENCRYPT, alg, key, iv, in))
	}}
}

// Sign is the SignImpl of alg.
func (l *Lib) Sign(alg string) scheme.SignImpl {
	return scheme.SignImpl{
		GenerateKey: func() ([]byte, []byte, error) { return l.GenerateKeyPair(alg) },
		Keygen:      func() (scheme.Job, error) { return jobOf(l.newJob(C.CC_KEYGEN, alg)) },
		Public:      func(priv []byte) ([]byte, error) { return l.PublicOf(alg, priv) },
		Sign:        func(priv, msg []byte) (scheme.Job, error) { return jobOf(l.newJob(C.CC_SIGN, alg, priv, msg)) },
		Verify: func(pub, msg, sig []byte) (scheme.Job, error) {
			return jobOf(l.newJob(C.CC_VERIFY, alg, pub, msg, sig))
		},
	}
}

// Agreement is the AgreementImpl of alg.
func (l *Lib) Agreement(alg string) scheme.AgreementImpl {
	return scheme.AgreementImpl{
		GenerateKey: func() ([]byte, []byte, error) { return l.GenerateKeyPair(alg) },
		Keygen:      func() (scheme.Job, error) { return jobOf(l.newJob(C.CC_KEYGEN, alg)) },
		Public:      func(priv []byte) ([]byte, error) { return l.PublicOf(alg, priv) },
		Derive:      func(priv, peer []byte) (scheme.Job, error) { return jobOf(l.newJob(C.CC_DERIVE, alg, priv, peer)) },
	}
}

// Load runs the provider's C loader (int load(char *version, size_t,
// char *err, size_t): 0 when the library opened, -2 when the provider was
// built without its headers) and, if it opened, builds the schemes of
// entries() (called only then: it may ask the library what it offers).
func (l *Lib) Load(loader unsafe.Pointer, entries func() []Entry) (string, []scheme.Scheme, error) {
	version := (*C.char)(C.calloc(256, 1))
	defer C.free(unsafe.Pointer(version))
	errBuf := (*C.char)(C.calloc(errLen, 1))
	defer C.free(unsafe.Pointer(errBuf))
	switch C.cc_call_load(loader, version, 256, errBuf, errLen) {
	case 0:
	case -2:
		return "", nil, fmt.Errorf("%w: %s", scheme.ErrNotCompiledIn, C.GoString(errBuf))
	default:
		return "", nil, errors.New(C.GoString(errBuf))
	}
	ss, err := Schemes(l.Name, entries())
	return C.GoString(version), ss, err
}

// Entry is one algorithm a provider offers: the registry's name and what
// the library calls it.
type Entry struct {
	Name string // registry name: "SHA-256"
	Impl any    // from Lib.Hash, Lib.AEAD, ...
}

// Schemes builds the provider's schemes from its table. An entry the
// registry cannot take is a programming error and is returned as one.
func Schemes(p scheme.Provider, entries []Entry) ([]scheme.Scheme, error) {
	var out []scheme.Scheme
	for _, e := range entries {
		s, err := scheme.Provide(e.Name, p, e.Impl)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// NullCall returns a function that crosses into C n times to do nothing:
// what one cgo call costs, for the run's environment.
func (l *Lib) NullCall() func(n int) {
	f := l.Null
	return func(n int) {
		for range n {
			C.cc_call_null(f)
		}
	}
}
