import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
const STATIC='/work/main/storybook/storybook-static';
const srv=createServer(async (req,res)=>{try{const p=new URL(req.url,'http://x').pathname;const d=await readFile(STATIC+(p.endsWith('/')?p+'index.html':p));res.writeHead(200,{'Content-Type':p.endsWith('.js')?'text/javascript':p.endsWith('.css')?'text/css':p.endsWith('.json')?'application/json':'text/html'});res.end(d)}catch{res.writeHead(404).end()}});
await new Promise(r=>srv.listen(0,r));
const b=await chromium.launch({executablePath:'/usr/bin/chromium',args:['--no-sandbox','--disable-gpu']});
const page=await b.newPage({viewport:{width:1280,height:900}});
for (const id of process.argv.slice(2)) {
  const t0=Date.now();
  await page.goto(`http://127.0.0.1:${srv.address().port}/iframe.html?id=${id}&viewMode=story`);
  const t1=Date.now();
  const seen=[];
  while (Date.now()-t0<20000) { const p=await page.evaluate(()=>window.__STORYBOOK_PREVIEW__?.currentRender?.phase); if(seen.at(-1)?.[0]!==p) seen.push([p,Date.now()-t0]); if(p==='finished') break; await page.waitForTimeout(50); }
  console.log(id, 'goto', t1-t0, JSON.stringify(seen));
}
await b.close(); srv.close();
