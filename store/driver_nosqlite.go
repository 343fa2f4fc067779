//go:build mips || mipsle || mips64 || mips64le

package store

// modernc.org/sqlite, the pure-Go SQLite, has no MIPS port, so the binary
// for routers (linux/mipsle) is built without the store: runs are written
// as JSON and imported on a machine that has one.
const noDriver = "this cryptocost is built for MIPS, where the pure-Go SQLite (modernc.org/sqlite) does not run: use --no-save and -o run.json, then 'cryptocost import run.json' on another machine"
