// The Enigma2 command's values, quoted for the receiver's shell. The Go side runs the same
// encoding through sh (api/catalog/command_test.go); here: each value lands in the single-quoted
// URL as bytes that cannot end the quotes or expand (A–Z a–z 0–9 - _ . ~ %) and decode back whole,
// and the bytes are the server's.
import { describe, expect, it } from 'vitest';
import { fillCommand } from './api';

const template = "wget -O /tmp/i.sh 'http://{server}/get.php?username={username}&password={password}&type=enigma22_script'";
const shape = /^wget -O \/tmp\/i\.sh 'http:\/\/line\.example:8000\/get\.php\?username=([^'&]*)&password=([^'&]*)&type=enigma22_script'$/;

describe('fillCommand', () => {
  it.each([
    ['plain', 'u1', 'p1'],
    ['double quote', 'a"b', '"; touch /tmp/pwned; echo "'],
    ['dollar', '$HOME', '$(touch /tmp/pwned)'],
    ['backtick', '`touch /tmp/pwned`', 'x`id`y'],
    ['backslash', 'a\\b', '\\"\\\'\\\\'],
    ['single quote', "o'brien", "'; touch /tmp/pwned; echo '"],
    ['url syntax', 'a&password=b', 'p#w?d=1 2+3%'],
    ['newline', 'a\nb', 'touch /tmp/pwned\n'],
  ])('keeps %s as data', (_, username, password) => {
    const cmd = fillCommand(template, { serverHostname: 'line.example:8000', username, password });
    const m = shape.exec(cmd);
    expect(m, cmd).not.toBeNull();
    const pairs: [string, string][] = [
      [m?.[1] ?? '', username],
      [m?.[2] ?? '', password],
    ];
    for (const [got, want] of pairs) {
      expect(got).toMatch(/^[A-Za-z0-9._~%-]*$/);
      expect(decodeURIComponent(got)).toBe(want);
    }
  });

  it('writes what the server writes', () => {
    // catalog.ExpandCommand's output for these values (TestExpandCommandMatchesTheWidget).
    expect(fillCommand("'{username}:{password}'", { serverHostname: 's', username: "a b'c!", password: '$x' })).toBe("'a%20b%27c%21:%24x'");
  });

  it("escapes a ' of the server for the single quotes", () => {
    expect(fillCommand("'{server}'", { serverHostname: "h'x", username: '', password: '' })).toBe("'h'\\''x'");
  });
});
