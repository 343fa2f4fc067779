//go:build riscv64 || wasm

package scheme

// XMSS (xmss.go) is not registered on riscv64 and wasm: the module it
// comes from, github.com/bwesterb/go-xmssmt, imports
// github.com/templexxx/cpu v0.0.9 (through templexxx/xorsimd), whose
// riscv64 and wasm files redeclare its init function, so it does not
// compile there. `cryptocost list` on such a build has no XMSS schemes;
// LMS (lms.go, RFC 8554) is there.
