// Package lineqrtest reads QR codes back in tests, as a phone camera would: the SVG is rendered by
// rsvg-convert (librsvg2-bin) and decoded by zbarimg (zbar-tools); .ci/run installs both.
package lineqrtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Decode renders svg to PNG and reads the QR code in it; the test fails when the tools are missing
// (.ci/run installs them) or nothing is read.
func Decode(t *testing.T, svg []byte) string {
	t.Helper()
	if !bytes.HasPrefix(svg, []byte("<svg ")) {
		t.Fatalf("not an SVG document: %.40q", svg)
	}
	dir := t.TempDir()
	in, png := filepath.Join(dir, "qr.svg"), filepath.Join(dir, "qr.png")
	if err := os.WriteFile(in, svg, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("rsvg-convert", "-w", "400", "-h", "400", "-o", png, in).CombinedOutput(); err != nil {
		t.Fatalf("rsvg-convert (apt-get install librsvg2-bin): %v: %s", err, out)
	}
	out, err := exec.Command("zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", png).Output()
	if err != nil {
		t.Fatalf("zbarimg (apt-get install zbar-tools): %v", err)
	}
	return strings.TrimSuffix(string(out), "\n")
}
