package lineqr_test

import (
	"errors"
	"testing"

	"github.com/streamcart/streamcart/api/lineqr"
	"github.com/streamcart/streamcart/api/lineqr/lineqrtest"
)

func TestXtreamText(t *testing.T) {
	got := lineqr.Xtream{Server: "http://line.example:8000", Username: "sc1", Password: `p&<"`}.Text()
	want := `{"server":"http://line.example:8000","username":"sc1","password":"p&<\""}`
	if got != want {
		t.Fatalf("Text() = %s, want %s", got, want)
	}
}

// TestSVGReadsBack draws codes and reads them back as a phone would: rsvg-convert renders the
// SVG, zbarimg (Debian's zbar-tools) decodes it.
func TestSVGReadsBack(t *testing.T) {
	for _, text := range []string{
		lineqr.Xtream{Server: "http://line.streamcart.local:8000", Username: "sc78069803", Password: "969353853392"}.Text(),
		"http://line.streamcart.local:8000/get.php?username=sc78069803&password=969353853392&type=m3u_plus&output=ts",
		"Ünïcode ✓",
	} {
		svg, err := lineqr.SVG(text)
		if err != nil {
			t.Fatal(err)
		}
		if got := lineqrtest.Decode(t, svg); got != text {
			t.Errorf("read back %q, want %q", got, text)
		}
	}
}

func TestSVGEmpty(t *testing.T) {
	if _, err := lineqr.SVG(""); !errors.Is(err, lineqr.ErrEmpty) {
		t.Fatalf("SVG(\"\") error = %v, want ErrEmpty", err)
	}
}
