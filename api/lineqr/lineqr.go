// Package lineqr draws the QR codes a buyer scans to set up a line on a phone or a TV app: the
// Xtream codes (server, username, password) or the m3u playlist URL, as SVG.
//
// The QR matrix is boombuler/barcode's (already in the module graph through pquerna/otp); it has no
// SVG writer, so the dark modules are drawn here as one path, with the quiet zone of four modules
// the standard asks for around them.
package lineqr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"strconv"

	"github.com/boombuler/barcode/qr"
)

// QuietZone is the light margin around the code, in modules (ISO/IEC 18004 asks for four).
const QuietZone = 4

// ErrEmpty is asked for a code of no text.
var ErrEmpty = errors.New("lineqr: empty text")

// Xtream is a line's Xtream codes as the apps that scan them read them.
type Xtream struct {
	Server   string `json:"server"` // http://host:port
	Username string `json:"username"`
	Password string `json:"password"`
}

// Text is the codes as the QR holds them: {"server":"…","username":"…","password":"…"}, in that
// order, with & < > kept as they are (a scanner shows the text, not HTML).
func (x Xtream) Text() string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(x) // three strings always encode
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// SVG draws text as a QR code (error correction M) in an SVG document whose user unit is one
// module; the viewer scales it (the document has a viewBox and no fixed size).
func SVG(text string) ([]byte, error) {
	if text == "" {
		return nil, ErrEmpty
	}
	code, err := qr.Encode(text, qr.M, qr.Auto)
	if err != nil {
		return nil, fmt.Errorf("lineqr: encode: %w", err)
	}
	n := code.Bounds().Dx()
	size := strconv.Itoa(n + 2*QuietZone)
	var b bytes.Buffer
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ` + size + ` ` + size + `" shape-rendering="crispEdges">`)
	b.WriteString(`<rect width="` + size + `" height="` + size + `" fill="#fff"/><path fill="#000" d="`)
	for y := 0; y < n; y++ {
		for x := 0; x < n; {
			if !dark(code.At(x, y)) {
				x++
				continue
			}
			run := 1
			for x+run < n && dark(code.At(x+run, y)) {
				run++
			}
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", x+QuietZone, y+QuietZone, run, run)
			x += run
		}
	}
	b.WriteString(`"/></svg>`)
	return b.Bytes(), nil
}

func dark(c color.Color) bool {
	r, g, bl, _ := c.RGBA()
	return r+g+bl < 3*0x8000
}
