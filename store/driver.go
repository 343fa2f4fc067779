//go:build !(mips || mipsle || mips64 || mips64le)

package store

import _ "modernc.org/sqlite" // registers the "sqlite" database/sql driver

// noDriver says why there is no SQLite driver, or "" when there is one.
const noDriver = ""
