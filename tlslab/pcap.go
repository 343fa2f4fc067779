package tlslab

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cryptocost/cryptocost/link"
)

// WritePcapng writes the connection as a pcapng capture at the client's
// interface: the modelled TCP/IPv4 packets (link.ModelTCP) carrying the
// real TLS bytes, each packet commented with the TLS messages it carries,
// and the TLS key log embedded (a Decryption Secrets Block) so Wireshark
// decrypts TLS 1.3 without a separate file.
func (c *Conn) WritePcapng(w io.Writer, comment string) error {
	up, down := c.Capture.Streams()
	return link.WritePcapng(w, c.Packets, up, down, link.PcapOptions{
		KeyLog:  c.KeyLog,
		Comment: comment,
		Label:   packetLabeler(c),
	})
}

// SavePcaps writes every measured connection of the runs into dir, one
// file per connection, named after the cell; it returns the paths.
func SavePcaps(dir string, runs []*CellRun, linkName string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("--pcap %s: %w", dir, err)
	}
	var paths []string
	for _, run := range runs {
		for i, conn := range run.Conns {
			if len(conn.Packets) == 0 {
				continue
			}
			name := strings.NewReplacer("/", "_", ".", "").Replace(run.Cell.Name())
			path := filepath.Join(dir, fmt.Sprintf("%s_%d.pcapng", name, i+1))
			f, err := os.Create(path)
			if err != nil {
				return paths, err
			}
			comment := fmt.Sprintf("cryptocost tls: %s over %s; %s", run.Cell.Name(), linkName, link.HeaderModel)
			err = conn.WritePcapng(f, comment)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return paths, fmt.Errorf("%s: %w", path, err)
			}
			paths = append(paths, path)
		}
	}
	return paths, nil
}
