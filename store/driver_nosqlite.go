//go:build mips || mipsle || mips64 || mips64le

package store

// modernc.org/sqlite, the pure-Go SQLite, has no MIPS port, so the binary
// for routers (linux/mipsle) is built without the SQLite store. The
// PostgreSQL store (pure Go) works: a router saves to a lab's shared store
// with --db postgres://…, or writes JSON with -o and pushes it later.
const noDriver = "this cryptocost is built for MIPS, where the pure-Go SQLite (modernc.org/sqlite) does not run: save to a shared PostgreSQL store with --db postgres://USER@HOST/DB, or use -o run.json and 'cryptocost push run.json' from another machine"
