// "Set up your device": the panel of the success page and of each line in the services view (its
// own chunk, screens/devices). The reference table of its area: every locale is typed against it.

export const texts = {
  title: 'Set up your device',
  lead: 'Pick your device: everything it needs, ready to scan or copy.',
  show: 'Set up a device',
  hide: 'Hide device setup',
  loading: 'Loading the setup…',
  loadError: 'The setup could not be loaded.',
  retry: 'Try again',
  // Tabs: the phone and TV apps; the set-top boxes are named by the catalog.
  tabApps: 'Phones & smart TVs',
  // QR codes (made on the server; only the line's owner gets them).
  qrXtream: 'Xtream codes',
  qrXtreamHint: 'Scan it in the app’s Xtream codes login (IPTV Smarters, TiviMate, XCIPTV…).',
  qrM3u: 'Playlist link',
  qrM3uHint: 'Scan it in players that take an m3u link.',
  qrAlt: (what: string) => `QR code of your ${what}`,
  qrError: 'The QR code could not be loaded.',
  // The values the steps use, each with a copy button.
  serverUrl: 'Server URL',
  username: 'Username',
  password: 'Password',
  playlistUrl: 'Playlist URL',
  portalUrl: 'Portal URL',
  macAddress: 'MAC address',
  command: 'Install command',
  yourApp: 'Your app',
  // Each app's steps, by how it takes a line (the catalog's apps[].setup).
  xtreamSteps: (app: string) => [
    `Install ${app} from its store and open it.`,
    'Choose “Login with Xtream Codes API” (in some apps: Add playlist → Xtream Codes).',
    'Scan the Xtream codes QR code if the app offers it, or copy the server URL, username and password below.',
    'Save: your channels load within a minute.',
  ],
  m3uSteps: (app: string) => [
    `Install ${app} and open it.`,
    'Add a playlist from a link (VLC: Media → Open Network Stream; Kodi: the PVR IPTV Simple Client add-on, M3U play list URL).',
    'Scan the playlist QR code or copy the playlist URL below and paste it.',
    'Open the playlist: the channels are listed by group.',
  ],
  magSteps: [
    'On the box, open Settings → System settings → Servers → Portals.',
    'Enter any name as Portal 1 name and the portal URL below as Portal 1 URL.',
    'Save and restart the box: it signs in with its MAC address.',
  ],
  // The box signs in by its MAC: the line must know it.
  macOnLine: 'The line is registered to this MAC address (printed under the box):',
  noMac: 'Your line has no MAC address yet: the box cannot sign in until it has one.',
  setMacHere: 'Set your box’s MAC (printed under the box, 00:1A:79:…) in the “MAC address” field of this line below.',
  setMacServices: 'Set your box’s MAC (printed under the box, 00:1A:79:…) in My services, under this line’s “MAC address”.',
  enigma2Steps: [
    'Find the receiver’s IP address (Menu → Information → Network).',
    'Connect to it from a computer with telnet or SSH (PuTTY on Windows), user root.',
    'Paste the install command below and press Enter.',
    'Restart the receiver’s interface (GUI): the bouquets appear in the channel list.',
  ],
};

export type DevicesTexts = typeof texts;
