package panel

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/streamcart/streamcart/api/clock"
)

// LineStore keeps the built-in panel's lines.
type LineStore interface {
	// InsertLine stores l unless its Ref exists, and returns the stored line; created reports
	// whether this call stored it. ErrUsernameTaken when another ref has the username.
	InsertLine(ctx context.Context, l Line, createdAt time.Time) (Line, bool, error)
	// LineByRef reads a line; ErrNotFound when none.
	LineByRef(ctx context.Context, ref string) (Line, error)
}

// Builtin is the embedded default panel: lines live in Streamcart's database and the playlist
// lists demo channels on the configured server hostname.
type Builtin struct {
	store    LineStore
	hostname string
	now      func() time.Time
}

var _ Panel = (*Builtin)(nil)

// NewBuiltin returns the built-in panel serving lines on hostname (host or host:port); now is
// the business clock (line creation and expiry), nil: real time.
func NewBuiltin(s LineStore, hostname string, now func() time.Time) *Builtin {
	return &Builtin{store: s, hostname: hostname, now: clock.OrReal(now)}
}

// CreateLine stores l as given, or returns the line already stored under l.Ref. Username
// collisions answer ErrUsernameTaken: draw a new username and call again with the same Ref.
func (b *Builtin) CreateLine(ctx context.Context, l Line) (Line, error) {
	switch {
	case l.Ref == "":
		return Line{}, fmt.Errorf("create line: %w: empty ref", ErrInvalidLine)
	case l.Username == "" || l.Password == "":
		return Line{}, fmt.Errorf("create line %s: %w: empty username or password", l.Ref, ErrInvalidLine)
	case l.MaxConnections < 1:
		return Line{}, fmt.Errorf("create line %s: %w: max connections %d", l.Ref, ErrInvalidLine, l.MaxConnections)
	case l.Credits < 0:
		return Line{}, fmt.Errorf("create line %s: %w: credits %d", l.Ref, ErrInvalidLine, l.Credits)
	}
	stored, _, err := b.store.InsertLine(ctx, l, b.now().UTC())
	if err != nil {
		return Line{}, fmt.Errorf("create line %s: %w", l.Ref, err)
	}
	return stored, nil
}

// Line reads the line created for ref.
func (b *Builtin) Line(ctx context.Context, ref string) (Line, error) {
	l, err := b.store.LineByRef(ctx, ref)
	if err != nil {
		return Line{}, fmt.Errorf("read line %s: %w", ref, err)
	}
	return l, nil
}

// ServerHostname is the host in playlist URLs.
func (b *Builtin) ServerHostname() string { return b.hostname }

// channel is one demo channel of the built-in panel's playlist.
type channel struct {
	id          int
	name, group string
}

// demoChannels are what every built-in line can watch: enough to try a player with.
var demoChannels = []channel{
	{1001, "Streamcart News", "News"},
	{1002, "World Report", "News"},
	{1003, "Business Today", "News"},
	{2001, "Goal Live", "Sports"},
	{2002, "Court Side", "Sports"},
	{2003, "Motor Arena", "Sports"},
	{3001, "Cinema One", "Movies"},
	{3002, "Classic Screen", "Movies"},
	{4001, "Kids Planet", "Kids"},
	{4002, "Cartoon Corner", "Kids"},
	{5001, "Nature Wild", "Documentary"},
	{5002, "History Lens", "Documentary"},
	{6001, "Hit Radio TV", "Music"},
}

// Playlist returns the m3u_plus playlist of a stored, enabled line. The credentials must match
// the stored ones; a mismatch answers ErrNotFound, as an unknown line does.
func (b *Builtin) Playlist(ctx context.Context, l Line) ([]byte, error) {
	stored, err := b.store.LineByRef(ctx, l.Ref)
	if err != nil {
		return nil, fmt.Errorf("playlist %s: %w", l.Ref, err)
	}
	if stored.Username != l.Username || stored.Password != l.Password {
		return nil, fmt.Errorf("playlist %s: %w", l.Ref, ErrNotFound)
	}
	if !stored.Enabled {
		return nil, fmt.Errorf("playlist %s: %w", l.Ref, ErrDisabled)
	}
	if !stored.ExpiresAt.IsZero() && !b.now().Before(stored.ExpiresAt) {
		return nil, fmt.Errorf("playlist %s: %w: expired", l.Ref, ErrDisabled)
	}
	user, pass := url.PathEscape(stored.Username), url.PathEscape(stored.Password)
	base := "http://" + b.hostname
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "#EXTM3U url-tvg=\"%s/xmltv.php?username=%s&password=%s\"\n", base,
		url.QueryEscape(stored.Username), url.QueryEscape(stored.Password))
	for _, c := range demoChannels {
		fmt.Fprintf(&buf, "#EXTINF:-1 tvg-id=\"\" tvg-name=\"%s\" tvg-logo=\"\" group-title=\"%s\",%s\n",
			attr(c.name), attr(c.group), c.name)
		fmt.Fprintf(&buf, "%s/live/%s/%s/%d.ts\n", base, user, pass, c.id)
	}
	return buf.Bytes(), nil
}

// attr keeps a value from closing an #EXTINF attribute.
func attr(s string) string { return strings.ReplaceAll(s, `"`, "'") }
