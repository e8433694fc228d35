//! A fake Discord on loopback for the adapter's end-to-end test and benchmark: a small HTTP/1.1
//! server for the REST API (serenity reaches it through `HttpBuilder::proxy`) and a websocket
//! gateway (tokio-tungstenite). It speaks enough of the protocol for the bot: HELLO, IDENTIFY,
//! READY, heartbeats, INTERACTION_CREATE dispatches, interaction callbacks, follow-ups and
//! edits (multipart with attachments too), channel messages, edits, pins, DM channels (refused
//! with error 50007 for chosen users) and command registration. It records every request and
//! keeps the current text and buttons of every message, and who can see it.
//!
//! Sharding: `GET /gateway/bot` asks for [`Fake::require_shards`] shards (1 by default), an
//! IDENTIFY for another total is closed with 4011 as Discord does, and each guild's events go
//! only on its shard `(guild_id >> 22) % shards` (DMs on shard 0). Failures on demand
//! ([`Fault`]): 429 with `Retry-After`, 500, 502 (an HTML body), and Discord's error codes
//! (50013, 10003, 10008, …) for requests matching a method and path; and the gateway's
//! CHANNEL_DELETE, THREAD_DELETE and GUILD_DELETE. An HTTPS tunnel ([`Fake::tunnel_url`])
//! lets a test keep serenity's rate limiter on, which ignores serenity's own proxy setting.
//!
//! Everything listens on 127.0.0.1 only.

#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, Notify};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message as WsMessage;

/// The fake's self-signed certificate (CN discord.com, ECDSA P-256) and its key (PKCS#8),
/// for tests only.
const CERT: &[u8] = include_bytes!("fake-cert.der");
const KEY: &[u8] = include_bytes!("fake-key.der");

pub const APP_ID: u64 = 900_000_000_000_000_001;
pub const BOT_ID: u64 = 900_000_000_000_000_002;
pub const GUILD: u64 = 900_000_000_000_000_003;

/// One REST request the bot made.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub seq: usize,
    pub method: String,
    pub path: String,
    /// The JSON body (`payload_json` of a multipart body).
    pub json: Value,
    /// Attached files: (name, bytes).
    pub files: Vec<(String, Vec<u8>)>,
    pub at: Instant,
    /// The token the request was sent with (`Authorization: Bot …`): which bot sent it.
    pub token: String,
}

/// A message as it is now.
#[derive(Debug, Clone)]
pub struct Msg {
    pub id: u64,
    pub channel: u64,
    pub content: String,
    /// (custom id, label) of every button, and (value, label) of every select-menu option.
    pub buttons: Vec<(String, String)>,
    /// The component rows as the bot sent them (buttons and select menus).
    pub rows: Value,
    pub ephemeral: bool,
    /// Who can see it: None = everyone in the channel.
    pub viewer: Option<u64>,
    /// The request sequence number of its last change.
    pub changed: usize,
    pub files: Vec<String>,
    pub pinned: bool,
    /// The whole Message object as the fake answered it.
    pub object: Value,
}

/// One identified gateway connection: where its frames go, its last sequence number.
struct Connection {
    tx: mpsc::UnboundedSender<WsMessage>,
    seq: u64,
}

/// What the fake knows about an interaction it sent.
#[derive(Debug, Clone)]
struct Pending {
    user: u64,
    channel: u64,
    /// The message the interaction's own response lives in (for clicks: the clicked one).
    original: Option<u64>,
    ephemeral: bool,
    sent_at: Instant,
    /// A type-5 deferral whose message still waits for its content: Discord makes the next
    /// follow-up an edit of it, with the deferral's visibility (the follow-up's flags ignored).
    deferral_waits: bool,
}

#[derive(Default)]
struct State {
    requests: Vec<Recorded>,
    messages: HashMap<u64, Msg>,
    interactions: HashMap<String, Pending>,
    /// Interaction token → when its callback arrived.
    acks: HashMap<String, Instant>,
    dm_channels: HashMap<u64, u64>,
    dm_of_user: HashMap<u64, u64>,
    refuse_dm: HashSet<u64>,
    users: HashMap<u64, String>,
    /// Channels of other guilds than [`GUILD`].
    guild_of: HashMap<u64, u64>,
    /// Edits and deletions of interactions' own messages (`@original`) fail.
    fail_original: bool,
    /// Pins refused per channel, with this Discord error code (30003 pin limit, 50013
    /// missing permissions).
    refuse_pins: HashMap<u64, u64>,
    /// Failures to answer instead of the normal answer (first match wins).
    faults: Vec<Fault>,
    /// The sequence numbers of the requests answered with a fault.
    faulted: Vec<usize>,
}

/// A failure the fake answers instead of the normal answer, to requests whose method is
/// `method` and whose path (without `/api/v10`) starts with `path`.
#[derive(Debug, Clone)]
pub struct Fault {
    pub method: String,
    pub path: String,
    pub status: u16,
    /// Discord's JSON error code (none for 502: the body is a proxy's HTML page).
    pub code: Option<u64>,
    /// A 429's wait in seconds: the `Retry-After` header and the body's `retry_after`.
    pub retry_after: Option<f64>,
    /// How many more matching requests get it.
    pub times: usize,
}

impl Fault {
    /// Discord's error `code` with its HTTP status (50013 → 403, 10003/10008 → 404, …).
    pub fn code(method: &str, path: &str, code: u64, times: usize) -> Fault {
        let status = match code {
            50001 | 50007 | 50013 | 30003 => 403,
            10003 | 10004 | 10008 => 404,
            _ => 400,
        };
        Fault {
            method: method.to_string(),
            path: path.to_string(),
            status,
            code: Some(code),
            retry_after: None,
            times,
        }
    }

    /// A server error: 500 with a JSON body, 502 with a proxy's HTML page.
    pub fn server(method: &str, path: &str, status: u16, times: usize) -> Fault {
        Fault {
            method: method.to_string(),
            path: path.to_string(),
            status,
            code: (status != 502).then_some(0),
            retry_after: None,
            times,
        }
    }

    /// A 429 (not global) asking to wait `retry_after` seconds.
    pub fn rate_limited(method: &str, path: &str, retry_after: f64, times: usize) -> Fault {
        Fault {
            method: method.to_string(),
            path: path.to_string(),
            status: 429,
            code: Some(0),
            retry_after: Some(retry_after),
            times,
        }
    }

    fn matches(&self, method: &str, path: &str) -> bool {
        self.times > 0 && self.method == method && path.starts_with(&self.path)
    }

    /// The status, the body (JSON or not) and the extra headers.
    fn answer(&self) -> (u16, String, Vec<(String, String)>) {
        let message = match (self.status, self.code) {
            (_, Some(50013)) => "Missing Permissions",
            (_, Some(10003)) => "Unknown Channel",
            (_, Some(10008)) => "Unknown Message",
            (_, Some(50007)) => "Cannot send messages to this user",
            (429, _) => "You are being rate limited.",
            _ => "Internal Server Error",
        };
        let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
        let body = match (self.code, self.retry_after) {
            (None, _) => {
                headers[0].1 = "text/html".to_string();
                "<html><body><h1>502 Bad Gateway</h1></body></html>".to_string()
            }
            (Some(_), Some(wait)) => {
                headers.push(("retry-after".to_string(), format!("{wait}")));
                headers.push(("x-ratelimit-limit".to_string(), "5".to_string()));
                headers.push(("x-ratelimit-remaining".to_string(), "0".to_string()));
                headers.push(("x-ratelimit-reset-after".to_string(), format!("{wait}")));
                headers.push(("x-ratelimit-bucket".to_string(), "fake-bucket".to_string()));
                headers.push(("x-ratelimit-scope".to_string(), "user".to_string()));
                json!({"message": message, "retry_after": wait, "global": false}).to_string()
            }
            (Some(code), None) => json!({"code": code, "message": message}).to_string(),
        };
        (self.status, body, headers)
    }
}

pub struct Fake {
    pub http_port: u16,
    pub ws_port: u16,
    /// The HTTPS proxy ([`Fake::tunnel_url`]).
    pub tunnel_port: u16,
    state: Mutex<State>,
    changed: Notify,
    next_id: AtomicU64,
    seq: AtomicUsize,
    /// The identified gateway connection of each shard.
    gateway: Mutex<HashMap<u32, Connection>>,
    /// How many shards the fake asks for (`GET /gateway/bot`) and accepts.
    shard_total: AtomicU32,
    /// (shard, event name) of every dispatch sent after READY.
    dispatched: Mutex<Vec<(u32, String)>>,
    pub identifies: AtomicUsize,
    /// Clicks that picked an option of a select menu.
    pub selects: AtomicUsize,
    /// Picks of several options of one select menu at once.
    pub multi_selects: AtomicUsize,
    tasks: Mutex<Vec<tokio::task::JoinHandle<()>>>,
}

impl Fake {
    /// Starts both servers on loopback ports chosen by the system.
    pub async fn start() -> Arc<Fake> {
        let http = TcpListener::bind("127.0.0.1:0").await.expect("bind http");
        let ws = TcpListener::bind("127.0.0.1:0").await.expect("bind ws");
        let tunnel = TcpListener::bind("127.0.0.1:0").await.expect("bind tunnel");
        let fake = Arc::new(Fake {
            http_port: http.local_addr().expect("addr").port(),
            ws_port: ws.local_addr().expect("addr").port(),
            tunnel_port: tunnel.local_addr().expect("addr").port(),
            state: Mutex::new(State::default()),
            changed: Notify::new(),
            next_id: AtomicU64::new(1_000_000_000_000_000_000),
            seq: AtomicUsize::new(0),
            gateway: Mutex::new(HashMap::new()),
            shard_total: AtomicU32::new(1),
            dispatched: Mutex::new(Vec::new()),
            identifies: AtomicUsize::new(0),
            selects: AtomicUsize::new(0),
            multi_selects: AtomicUsize::new(0),
            tasks: Mutex::new(Vec::new()),
        });
        let f = fake.clone();
        let h1 = tokio::spawn(async move {
            while let Ok((stream, _)) = http.accept().await {
                let f = f.clone();
                tokio::spawn(async move {
                    let _ = f.serve_http(stream).await;
                });
            }
        });
        let f = fake.clone();
        let h2 = tokio::spawn(async move {
            while let Ok((stream, _)) = ws.accept().await {
                let f = f.clone();
                tokio::spawn(async move {
                    f.serve_gateway(stream).await;
                });
            }
        });
        let f = fake.clone();
        let h3 = tokio::spawn(async move {
            while let Ok((stream, _)) = tunnel.accept().await {
                let f = f.clone();
                tokio::spawn(async move {
                    let _ = f.serve_tunnel(stream).await;
                });
            }
        });
        fake.tasks.lock().unwrap().extend([h1, h2, h3]);
        fake
    }

    /// The fake as an HTTPS proxy for `https://discord.com`: a REST client with a proxy here
    /// (and the fake's self-signed certificate accepted) reaches the fake without serenity's
    /// `proxy` setting, so serenity's rate limiter can stay on.
    pub fn tunnel_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.tunnel_port)
    }

    /// One CONNECT through the proxy: then TLS as discord.com, then the same REST answers.
    async fn serve_tunnel(self: Arc<Self>, mut stream: TcpStream) -> std::io::Result<()> {
        use tokio_rustls::rustls;
        // The CONNECT request's head, byte by byte: the TLS handshake follows it.
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            let mut byte = [0u8; 1];
            if stream.read(&mut byte).await? == 0 {
                return Ok(());
            }
            head.push(byte[0]);
        }
        if !head.starts_with(b"CONNECT ") {
            return Ok(());
        }
        stream
            .write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n")
            .await?;
        let cert = rustls::pki_types::CertificateDer::from(CERT.to_vec());
        let key = rustls::pki_types::PrivateKeyDer::Pkcs8(KEY.to_vec().into());
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(std::io::Error::other)?
            .with_no_client_auth()
            .with_single_cert(vec![cert], key)
            .map_err(std::io::Error::other)?;
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        let tls = tokio_rustls::TlsAcceptor::from(Arc::new(config))
            .accept(stream)
            .await?;
        self.serve_http(tls).await
    }

    pub fn proxy_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.http_port)
    }

    pub fn stop(&self) {
        for t in self.tasks.lock().unwrap().drain(..) {
            t.abort();
        }
    }

    fn id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::SeqCst)
    }

    pub fn name_user(&self, id: u64, name: &str) {
        self.state
            .lock()
            .unwrap()
            .users
            .insert(id, name.to_string());
    }

    /// The DM channel between the bot and `user` (as when the user writes to the bot first).
    pub fn open_dm(&self, user: u64) -> u64 {
        let mut st = self.state.lock().unwrap();
        if let Some(c) = st.dm_of_user.get(&user) {
            return *c;
        }
        let c = self.id();
        st.dm_of_user.insert(user, c);
        st.dm_channels.insert(c, user);
        c
    }

    /// Puts `channel` in another guild than [`GUILD`] (its interactions say so).
    pub fn place_channel(&self, channel: u64, guild: u64) {
        self.state.lock().unwrap().guild_of.insert(channel, guild);
    }

    /// How many times the bot tried to send a message into `user`'s DM channel.
    pub fn dm_attempts(&self, user: u64) -> usize {
        let Some(dm) = self.dm_channel_of(user) else {
            return 0;
        };
        let path = format!("/channels/{dm}/messages");
        self.requests()
            .iter()
            .filter(|r| r.method == "POST" && r.path == path)
            .count()
    }

    /// From now on, edits and deletions of interactions' own messages fail (400) until turned
    /// off again.
    pub fn fail_original_changes(&self, fail: bool) {
        self.state.lock().unwrap().fail_original = fail;
    }

    /// Pins in `channel` are refused with Discord's error `code` (30003: the channel's pin
    /// limit; 50013: the bot lacks the permission).
    pub fn refuse_pins(&self, channel: u64, code: u64) {
        self.state.lock().unwrap().refuse_pins.insert(channel, code);
    }

    /// DMs to this user are refused with 50007.
    pub fn refuse_dms(&self, user: u64) {
        self.state.lock().unwrap().refuse_dm.insert(user);
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.state.lock().unwrap().requests.clone()
    }

    pub fn request_count(&self) -> usize {
        self.state.lock().unwrap().requests.len()
    }

    pub fn messages(&self) -> Vec<Msg> {
        let mut v: Vec<Msg> = self
            .state
            .lock()
            .unwrap()
            .messages
            .values()
            .cloned()
            .collect();
        v.sort_by_key(|m| m.changed);
        v
    }

    pub fn message(&self, id: u64) -> Option<Msg> {
        self.state.lock().unwrap().messages.get(&id).cloned()
    }

    pub fn dm_channel_of(&self, user: u64) -> Option<u64> {
        self.state.lock().unwrap().dm_of_user.get(&user).copied()
    }

    /// When the callback of the interaction with this token arrived.
    pub fn ack_of(&self, token: &str) -> Option<Instant> {
        self.state.lock().unwrap().acks.get(token).copied()
    }

    pub fn sent_at(&self, token: &str) -> Option<Instant> {
        self.state
            .lock()
            .unwrap()
            .interactions
            .get(token)
            .map(|p| p.sent_at)
    }

    /// Waits (bounded) until a recorded request satisfies `pred`; returns it.
    pub async fn wait_for(
        &self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&Recorded) -> bool,
    ) -> Recorded {
        let deadline = Instant::now() + timeout;
        loop {
            let notified = self.changed.notified();
            if let Some(r) = self.state.lock().unwrap().requests.iter().find(|r| pred(r)) {
                return r.clone();
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                panic!("timed out waiting for {what}");
            }
            let _ = tokio::time::timeout(left, notified).await;
        }
    }

    /// Waits until no request has arrived for `quiet` (at most `timeout`).
    pub async fn settle(&self, quiet: Duration, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        loop {
            let before = self.request_count();
            tokio::time::sleep(quiet).await;
            if self.request_count() == before || Instant::now() > deadline {
                return;
            }
        }
    }

    /// Waits until IDENTIFY came `n` times in all and every shard has a connection.
    pub async fn wait_identified(&self, n: usize, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while self.identifies.load(Ordering::SeqCst) < n
            || self.gateway.lock().unwrap().len() < self.shard_total() as usize
        {
            assert!(Instant::now() < deadline, "the bot did not connect");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    // ---------------------------------------------------------------- shards

    /// Asks for `total` shards (`GET /gateway/bot`) and accepts only IDENTIFYs for that many;
    /// one for another total is closed with 4011 (sharding required), as Discord does.
    pub fn require_shards(&self, total: u32) {
        self.shard_total.store(total.max(1), Ordering::SeqCst);
    }

    pub fn shard_total(&self) -> u32 {
        self.shard_total.load(Ordering::SeqCst)
    }

    /// The shard Discord sends a guild's events on.
    pub fn shard_of(&self, guild: u64) -> u32 {
        ((guild >> 22) % u64::from(self.shard_total())) as u32
    }

    /// The shards that have an identified connection now.
    pub fn connected_shards(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.gateway.lock().unwrap().keys().copied().collect();
        v.sort_unstable();
        v
    }

    /// (shard, event name) of every dispatch sent after READY, in order.
    pub fn dispatched(&self) -> Vec<(u32, String)> {
        self.dispatched.lock().unwrap().clone()
    }

    /// Sends a dispatch on the shard of the guild it belongs to (`guild_id`, or `id` for the
    /// GUILD_* events); events without a guild (DMs) go on shard 0.
    fn dispatch(&self, event: &str, d: Value) {
        let guild = d["guild_id"]
            .as_str()
            .or_else(|| {
                event
                    .starts_with("GUILD_")
                    .then(|| d["id"].as_str())
                    .flatten()
            })
            .and_then(|g| g.parse::<u64>().ok());
        let shard = guild.map(|g| self.shard_of(g)).unwrap_or(0);
        let mut gateway = self.gateway.lock().unwrap();
        let Some(conn) = gateway.get_mut(&shard) else {
            return;
        };
        conn.seq += 1;
        let frame = json!({"op": 0, "t": event, "s": conn.seq, "d": d}).to_string();
        let _ = conn.tx.send(WsMessage::Text(frame));
        self.dispatched
            .lock()
            .unwrap()
            .push((shard, event.to_string()));
    }

    fn user_object(&self, id: u64) -> Value {
        let name = self
            .state
            .lock()
            .unwrap()
            .users
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("user{id}"));
        json!({"id": id.to_string(), "username": name, "discriminator": "0",
               "global_name": name, "avatar": null, "bot": false})
    }

    fn bot_object(&self) -> Value {
        json!({"id": BOT_ID.to_string(), "username": "skymines", "discriminator": "0",
               "global_name": "Skymines", "avatar": null, "bot": true})
    }

    /// The fields every interaction carries; `channel` is a guild channel or a DM channel.
    fn interaction_base(&self, kind: u8, user: u64, channel: u64, dm: bool, token: &str) -> Value {
        let mut v = json!({
            "id": self.id().to_string(),
            "application_id": APP_ID.to_string(),
            "type": kind,
            "token": token,
            "version": 1,
            "channel_id": channel.to_string(),
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": 8_388_608,
            "app_permissions": "8",
        });
        if dm {
            v["user"] = self.user_object(user);
            v["context"] = json!(1);
        } else {
            let guild = self
                .state
                .lock()
                .unwrap()
                .guild_of
                .get(&channel)
                .copied()
                .unwrap_or(GUILD);
            v["guild_id"] = json!(guild.to_string());
            v["guild_locale"] = json!("en-US");
            v["member"] = json!({
                "user": self.user_object(user),
                "roles": [],
                "joined_at": "2024-01-01T00:00:00.000000+00:00",
                "deaf": false, "mute": false, "flags": 0, "pending": false,
                "permissions": "1024", "nick": null, "avatar": null,
            });
            v["context"] = json!(0);
        }
        v
    }

    fn new_token(&self) -> String {
        format!("itok-{}", self.id())
    }

    /// Sends a slash command; `path` is `["skymines", "new"]` or `["plan"]`; option values:
    /// strings, integers or booleans. Returns the interaction token.
    pub fn slash(
        &self,
        user: u64,
        channel: u64,
        dm: bool,
        path: &[&str],
        options: &[(&str, Value)],
    ) -> String {
        let token = self.new_token();
        let opts: Vec<Value> = options
            .iter()
            .map(|(k, v)| {
                let kind = match v {
                    Value::Bool(_) => 5,
                    Value::Number(_) => 4,
                    _ => 3,
                };
                json!({"name": k, "type": kind, "value": v})
            })
            .collect();
        let data = match path {
            [top, sub] => json!({"id": "1", "name": top, "type": 1,
                "options": [{"name": sub, "type": 1, "options": opts}]}),
            [top] => json!({"id": "1", "name": top, "type": 1, "options": opts}),
            _ => panic!("a command path has one or two names"),
        };
        let mut v = self.interaction_base(2, user, channel, dm, &token);
        v["data"] = data;
        self.remember(&token, user, channel, None);
        self.dispatch("INTERACTION_CREATE", v);
        token
    }

    /// Sends an autocomplete request for `focus` (typed so far: `partial`).
    pub fn autocomplete(
        &self,
        user: u64,
        channel: u64,
        path: &[&str],
        focus: &str,
        partial: &str,
    ) -> String {
        let token = self.new_token();
        let opts = json!([{"name": focus, "type": 3, "value": partial, "focused": true}]);
        let data = match path {
            [top, sub] => json!({"id": "1", "name": top, "type": 1,
                "options": [{"name": sub, "type": 1, "options": opts}]}),
            [top] => json!({"id": "1", "name": top, "type": 1, "options": opts}),
            _ => panic!("a command path has one or two names"),
        };
        let mut v = self.interaction_base(4, user, channel, false, &token);
        v["data"] = data;
        self.remember(&token, user, channel, None);
        self.dispatch("INTERACTION_CREATE", v);
        token
    }

    /// Clicks a button of a message the bot sent (or picks one option of its select menu).
    pub fn click(&self, user: u64, message: &Msg, custom_id: &str) -> String {
        self.pick(user, message, &[custom_id])
    }

    /// Picks several options of one select menu at once (or clicks one button).
    pub fn pick(&self, user: u64, message: &Msg, values: &[&str]) -> String {
        let custom_id = values.first().copied().unwrap_or_default();
        let token = self.new_token();
        let dm = self
            .state
            .lock()
            .unwrap()
            .dm_channels
            .contains_key(&message.channel);
        let mut v = self.interaction_base(3, user, message.channel, dm, &token);
        // A select-menu option is picked from its menu; anything else is a button.
        v["data"] = match menu_offering(&message.rows, custom_id) {
            Some(menu) => {
                self.selects.fetch_add(1, Ordering::SeqCst);
                if values.len() > 1 {
                    self.multi_selects.fetch_add(1, Ordering::SeqCst);
                }
                json!({"custom_id": menu, "component_type": 3, "values": values})
            }
            None => json!({"custom_id": custom_id, "component_type": 2}),
        };
        v["message"] = message.object.clone();
        self.remember(&token, user, message.channel, Some(message.id));
        {
            let mut st = self.state.lock().unwrap();
            if let Some(p) = st.interactions.get_mut(&token) {
                p.ephemeral = message.ephemeral;
            }
        }
        self.dispatch("INTERACTION_CREATE", v);
        token
    }

    fn remember(&self, token: &str, user: u64, channel: u64, original: Option<u64>) {
        self.state.lock().unwrap().interactions.insert(
            token.to_string(),
            Pending {
                user,
                channel,
                original,
                ephemeral: false,
                sent_at: Instant::now(),
                deferral_waits: false,
            },
        );
    }

    // ---------------------------------------------------------------- faults

    /// Answers matching requests with `fault` (after the faults added before it).
    pub fn inject(&self, fault: Fault) {
        self.state.lock().unwrap().faults.push(fault);
    }

    /// Removes every fault not used up yet: Discord works again.
    pub fn clear_faults(&self) {
        self.state.lock().unwrap().faults.clear();
    }

    /// The requests answered with a fault, in order.
    pub fn faulted(&self) -> Vec<Recorded> {
        let st = self.state.lock().unwrap();
        st.requests
            .iter()
            .filter(|r| st.faulted.contains(&r.seq))
            .cloned()
            .collect()
    }

    fn take_fault(&self, method: &str, path: &str, seq: usize) -> Option<Fault> {
        let mut st = self.state.lock().unwrap();
        let fault = st.faults.iter_mut().find(|f| f.matches(method, path))?;
        fault.times -= 1;
        let fault = fault.clone();
        st.faulted.push(seq);
        Some(fault)
    }

    /// Discord deleted a channel of `guild` (a text channel).
    pub fn delete_channel(&self, channel: u64, guild: u64) {
        self.dispatch(
            "CHANNEL_DELETE",
            json!({"id": channel.to_string(), "guild_id": guild.to_string(), "type": 0,
                   "name": "games", "position": 0, "permission_overwrites": [],
                   "nsfw": false, "parent_id": null, "last_message_id": null}),
        );
    }

    /// Discord deleted a thread of `guild`.
    pub fn delete_thread(&self, thread: u64, parent: u64, guild: u64) {
        self.dispatch(
            "THREAD_DELETE",
            json!({"id": thread.to_string(), "guild_id": guild.to_string(),
                   "parent_id": parent.to_string(), "type": 11}),
        );
    }

    /// The bot left `guild` (removed: `unavailable` false) or the guild is in an outage
    /// (`unavailable` true).
    pub fn delete_guild(&self, guild: u64, unavailable: bool) {
        let mut d = json!({"id": guild.to_string()});
        if unavailable {
            d["unavailable"] = json!(true);
        }
        self.dispatch("GUILD_DELETE", d);
    }

    // ---------------------------------------------------------------- gateway

    async fn serve_gateway(self: Arc<Self>, stream: TcpStream) {
        let Ok(ws) = tokio_tungstenite::accept_async(stream).await else {
            return;
        };
        let (mut sink, mut source) = ws.split();
        let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}}).to_string();
        if sink.send(WsMessage::Text(hello)).await.is_err() {
            return;
        }
        let (tx, mut rx) = mpsc::unbounded_channel::<WsMessage>();
        let writer = tokio::spawn(async move {
            while let Some(frame) = rx.recv().await {
                let close = matches!(frame, WsMessage::Close(_));
                if sink.send(frame).await.is_err() || close {
                    break;
                }
            }
            let _ = sink.close().await;
        });
        let mut shard = None;
        while let Some(Ok(frame)) = source.next().await {
            let text = match frame {
                WsMessage::Text(t) => t,
                WsMessage::Binary(b) => String::from_utf8_lossy(&b).to_string(),
                WsMessage::Close(_) => break,
                _ => continue,
            };
            let Ok(v) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            match v["op"].as_u64() {
                Some(1) => {
                    let _ = tx.send(WsMessage::Text(json!({"op": 11}).to_string()));
                }
                Some(2) => {
                    self.identifies.fetch_add(1, Ordering::SeqCst);
                    let id = v["d"]["shard"][0].as_u64().unwrap_or(0) as u32;
                    let total = v["d"]["shard"][1].as_u64().unwrap_or(1) as u32;
                    if total != self.shard_total() || id >= total {
                        let _ = tx.send(WsMessage::Close(Some(CloseFrame {
                            code: CloseCode::from(4011),
                            reason: "Sharding required".into(),
                        })));
                        break;
                    }
                    let ready = json!({"op": 0, "t": "READY", "s": 1, "d": {
                        "v": 10,
                        "user": self.bot_object(),
                        "guilds": [],
                        "session_id": format!("session-{}", self.id()),
                        "resume_gateway_url": format!("ws://127.0.0.1:{}", self.ws_port),
                        "shard": [id, total],
                        "application": {"id": APP_ID.to_string(), "flags": 0},
                    }});
                    let _ = tx.send(WsMessage::Text(ready.to_string()));
                    self.gateway.lock().unwrap().insert(
                        id,
                        Connection {
                            tx: tx.clone(),
                            seq: 1,
                        },
                    );
                    shard = Some(id);
                }
                Some(6) => {
                    // RESUME: pretend the session is gone so the bot identifies afresh.
                    let _ = tx.send(WsMessage::Text(json!({"op": 9, "d": false}).to_string()));
                }
                _ => {}
            }
        }
        if let Some(id) = shard {
            let mut g = self.gateway.lock().unwrap();
            if g.get(&id).is_some_and(|c| c.tx.same_channel(&tx)) {
                g.remove(&id);
            }
        }
        drop(tx);
        let _ = writer.await;
    }

    // ---------------------------------------------------------------- REST

    async fn serve_http<S>(self: Arc<Self>, stream: S) -> std::io::Result<()>
    where
        S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
    {
        let (read, mut write) = tokio::io::split(stream);
        let mut reader = BufReader::new(read);
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).await? == 0 {
                return Ok(());
            }
            let mut parts = line.split_whitespace();
            let method = parts.next().unwrap_or("").to_string();
            let target = parts.next().unwrap_or("").to_string();
            let mut headers: HashMap<String, String> = HashMap::new();
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).await? == 0 {
                    return Ok(());
                }
                let h = h.trim_end();
                if h.is_empty() {
                    break;
                }
                if let Some((k, v)) = h.split_once(':') {
                    headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
                }
            }
            let mut body = Vec::new();
            if let Some(len) = headers.get("content-length") {
                let len: usize = len.parse().unwrap_or(0);
                body.resize(len, 0);
                reader.read_exact(&mut body).await?;
            } else if headers
                .get("transfer-encoding")
                .is_some_and(|t| t.contains("chunked"))
            {
                loop {
                    let mut size = String::new();
                    reader.read_line(&mut size).await?;
                    let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
                    let mut chunk = vec![0; n + 2];
                    reader.read_exact(&mut chunk).await?;
                    if n == 0 {
                        break;
                    }
                    body.extend_from_slice(&chunk[..n]);
                }
            }
            let path = target
                .split('?')
                .next()
                .unwrap_or("")
                .trim_start_matches("/api/v10")
                .to_string();
            let content_type = headers.get("content-type").cloned().unwrap_or_default();
            let (json_body, files) = parse_body(&content_type, &body);
            let token = headers
                .get("authorization")
                .map(|a| a.trim_start_matches("Bot ").to_string())
                .unwrap_or_default();
            let (status, text, extra) = self.route(&method, &path, json_body, files, token);
            let reason = match status {
                200 => "OK",
                204 => "No Content",
                403 => "Forbidden",
                429 => "Too Many Requests",
                500 => "Internal Server Error",
                502 => "Bad Gateway",
                _ => "Not Found",
            };
            let mut headers = String::new();
            if !extra.iter().any(|(k, _)| k == "content-type") {
                headers.push_str("content-type: application/json\r\n");
            }
            for (k, v) in &extra {
                headers.push_str(&format!("{k}: {v}\r\n"));
            }
            let head = format!(
                "HTTP/1.1 {status} {reason}\r\n{headers}content-length: {}\r\nconnection: keep-alive\r\n\r\n",
                text.len()
            );
            write.write_all(head.as_bytes()).await?;
            write.write_all(text.as_bytes()).await?;
            write.flush().await?;
        }
    }

    fn record(
        &self,
        method: &str,
        path: &str,
        json: &Value,
        files: &[(String, Vec<u8>)],
        token: String,
    ) -> usize {
        let seq = self.seq.fetch_add(1, Ordering::SeqCst) + 1;
        self.state.lock().unwrap().requests.push(Recorded {
            seq,
            method: method.to_string(),
            path: path.to_string(),
            json: json.clone(),
            files: files.to_vec(),
            at: Instant::now(),
            token,
        });
        seq
    }

    /// The status, body and extra headers of the answer to a request.
    fn route(
        &self,
        method: &str,
        path: &str,
        body: Value,
        files: Vec<(String, Vec<u8>)>,
        token: String,
    ) -> (u16, String, Vec<(String, String)>) {
        let seq = self.record(method, path, &body, &files, token);
        let answer = match self.take_fault(method, path, seq) {
            Some(fault) => fault.answer(),
            None => {
                let (status, json) = self.answer(method, path, &body, &files, seq);
                let text = json.map(|v| v.to_string()).unwrap_or_default();
                (status, text, Vec::new())
            }
        };
        self.changed.notify_waiters();
        answer
    }

    fn answer(
        &self,
        method: &str,
        path: &str,
        body: &Value,
        files: &[(String, Vec<u8>)],
        seq: usize,
    ) -> (u16, Option<Value>) {
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        let not_found = (
            404,
            Some(json!({"code": 10008, "message": "Unknown Message"})),
        );
        match (method, parts.as_slice()) {
            ("GET", ["gateway"]) => (
                200,
                Some(json!({"url": format!("ws://127.0.0.1:{}", self.ws_port)})),
            ),
            ("GET", ["gateway", "bot"]) => (
                200,
                Some(json!({
                    "url": format!("ws://127.0.0.1:{}", self.ws_port),
                    "shards": self.shard_total(),
                    "session_start_limit": {"total": 1000, "remaining": 999,
                                            "reset_after": 0, "max_concurrency": 1},
                })),
            ),
            ("PUT", ["applications", _, "commands"])
            | ("PUT", ["applications", _, "guilds", _, "commands"]) => {
                let list: Vec<Value> = body
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
                    .iter()
                    .map(|c| {
                        json!({"id": self.id().to_string(), "application_id": APP_ID.to_string(),
                               "version": "1", "type": 1, "name": c["name"],
                               "description": c["description"], "options": [],
                               "default_member_permissions": null, "nsfw": false})
                    })
                    .collect();
                (200, Some(Value::Array(list)))
            }
            ("POST", ["interactions", _, token, "callback"]) => {
                let mut st = self.state.lock().unwrap();
                st.acks
                    .entry(token.to_string())
                    .or_insert_with(Instant::now);
                let kind = body["type"].as_u64().unwrap_or(0);
                let ephemeral = body["data"]["flags"].as_u64().unwrap_or(0) & 64 != 0;
                if kind == 7 {
                    // The clicked message is updated in place.
                    let original = st.interactions.get(*token).and_then(|p| p.original);
                    drop(st);
                    if let Some(id) = original {
                        self.apply_edit(id, &body["data"], &[], seq);
                    }
                } else if kind == 5 || kind == 4 {
                    // A (deferred) response message exists from now on.
                    let id = self.id();
                    let (user, channel) = st
                        .interactions
                        .get(*token)
                        .map(|p| (p.user, p.channel))
                        .unwrap_or((0, 0));
                    let dm = st.dm_channels.contains_key(&channel);
                    let msg = Msg {
                        id,
                        channel,
                        content: body["data"]["content"].as_str().unwrap_or("").to_string(),
                        buttons: Vec::new(),
                        rows: json!([]),
                        ephemeral,
                        viewer: if ephemeral || dm { Some(user) } else { None },
                        changed: seq,
                        files: Vec::new(),
                        pinned: false,
                        object: Value::Null,
                    };
                    st.messages.insert(id, msg);
                    if let Some(p) = st.interactions.get_mut(*token) {
                        p.original = Some(id);
                        p.ephemeral = ephemeral;
                        p.deferral_waits = kind == 5;
                    }
                    drop(st);
                    self.refresh_object(id);
                }
                (204, None)
            }
            ("PATCH", ["webhooks", _, token, "messages", "@original"]) => {
                let original = {
                    let mut st = self.state.lock().unwrap();
                    if st.fail_original {
                        return refused_change();
                    }
                    let p = st.interactions.get_mut(*token);
                    p.and_then(|p| {
                        p.deferral_waits = false;
                        p.original
                    })
                };
                match original {
                    Some(id) => {
                        self.apply_edit(id, body, files, seq);
                        (200, self.message(id).map(|m| m.object))
                    }
                    None => not_found,
                }
            }
            ("DELETE", ["webhooks", _, token, "messages", "@original"]) => {
                let mut st = self.state.lock().unwrap();
                if st.fail_original {
                    return refused_change();
                }
                if let Some(p) = st.interactions.get_mut(*token) {
                    p.deferral_waits = false;
                }
                if let Some(id) = st.interactions.get(*token).and_then(|p| p.original) {
                    st.messages.remove(&id);
                }
                (204, None)
            }
            ("POST", ["webhooks", _, token]) => {
                let pending = self.state.lock().unwrap().interactions.get(*token).cloned();
                let Some(p) = pending else {
                    return not_found;
                };
                if let (true, Some(id)) = (p.deferral_waits, p.original) {
                    // The first follow-up after a deferral fills the deferred message, which
                    // keeps the deferral's visibility.
                    if let Some(p) = self.state.lock().unwrap().interactions.get_mut(*token) {
                        p.deferral_waits = false;
                    }
                    self.apply_edit(id, body, files, seq);
                    return (200, self.message(id).map(|m| m.object));
                }
                let ephemeral = body["flags"].as_u64().unwrap_or(0) & 64 != 0;
                let dm = self
                    .state
                    .lock()
                    .unwrap()
                    .dm_channels
                    .contains_key(&p.channel);
                let viewer = if ephemeral || dm { Some(p.user) } else { None };
                let id = self.new_message(p.channel, body, files, ephemeral, viewer, seq);
                (200, self.message(id).map(|m| m.object))
            }
            ("POST", ["users", "@me", "channels"]) => {
                let user: u64 = body["recipient_id"]
                    .as_str()
                    .and_then(|s| s.parse().ok())
                    .or_else(|| body["recipient_id"].as_u64())
                    .unwrap_or(0);
                let channel = {
                    let mut st = self.state.lock().unwrap();
                    match st.dm_of_user.get(&user) {
                        Some(c) => *c,
                        None => {
                            let c = self.id();
                            st.dm_of_user.insert(user, c);
                            st.dm_channels.insert(c, user);
                            c
                        }
                    }
                };
                (
                    200,
                    Some(
                        json!({"id": channel.to_string(), "type": 1, "last_message_id": null,
                                "recipients": [self.user_object(user)]}),
                    ),
                )
            }
            ("POST", ["channels", channel, "messages"]) => {
                let channel: u64 = channel.parse().unwrap_or(0);
                let dm_user = self
                    .state
                    .lock()
                    .unwrap()
                    .dm_channels
                    .get(&channel)
                    .copied();
                if let Some(u) = dm_user {
                    if self.state.lock().unwrap().refuse_dm.contains(&u) {
                        return (
                            403,
                            Some(
                                json!({"code": 50007, "message": "Cannot send messages to this user"}),
                            ),
                        );
                    }
                }
                let id = self.new_message(channel, body, files, false, dm_user, seq);
                (200, self.message(id).map(|m| m.object))
            }
            ("PATCH", ["channels", _, "messages", message]) => {
                let id: u64 = message.parse().unwrap_or(0);
                if self.message(id).is_none() {
                    return not_found;
                }
                self.apply_edit(id, body, files, seq);
                (200, self.message(id).map(|m| m.object))
            }
            ("PUT", ["channels", channel, "pins", _]) if self.pins_refused(channel).is_some() => {
                let code = self.pins_refused(channel).unwrap_or(0);
                let (status, message) = match code {
                    30003 => (400, "Maximum number of pins reached"),
                    _ => (403, "Missing Permissions"),
                };
                (status, Some(json!({"code": code, "message": message})))
            }
            ("DELETE", ["channels", _, "pins", message]) => {
                let id: u64 = message.parse().unwrap_or(0);
                match self.state.lock().unwrap().messages.get_mut(&id) {
                    Some(m) => {
                        m.pinned = false;
                        (204, None)
                    }
                    None => not_found,
                }
            }
            ("PUT", ["channels", _, "pins", message]) => {
                let id: u64 = message.parse().unwrap_or(0);
                if let Some(m) = self.state.lock().unwrap().messages.get_mut(&id) {
                    m.pinned = true;
                }
                (204, None)
            }
            _ => (404, Some(json!({"code": 0, "message": "not in the fake"}))),
        }
    }

    fn pins_refused(&self, channel: &str) -> Option<u64> {
        let channel: u64 = channel.parse().ok()?;
        self.state
            .lock()
            .unwrap()
            .refuse_pins
            .get(&channel)
            .copied()
    }

    fn new_message(
        &self,
        channel: u64,
        body: &Value,
        files: &[(String, Vec<u8>)],
        ephemeral: bool,
        viewer: Option<u64>,
        seq: usize,
    ) -> u64 {
        let id = self.id();
        let msg = Msg {
            id,
            channel,
            content: body["content"].as_str().unwrap_or("").to_string(),
            buttons: buttons_of(body),
            rows: body.get("components").cloned().unwrap_or_else(|| json!([])),
            ephemeral,
            viewer,
            changed: seq,
            files: files.iter().map(|(n, _)| n.clone()).collect(),
            pinned: false,
            object: Value::Null,
        };
        self.state.lock().unwrap().messages.insert(id, msg);
        self.refresh_object(id);
        id
    }

    fn apply_edit(&self, id: u64, body: &Value, files: &[(String, Vec<u8>)], seq: usize) {
        {
            let mut st = self.state.lock().unwrap();
            let Some(m) = st.messages.get_mut(&id) else {
                return;
            };
            if let Some(c) = body["content"].as_str() {
                m.content = c.to_string();
            }
            if body.get("components").is_some() {
                m.buttons = buttons_of(body);
                m.rows = body["components"].clone();
            }
            if body.get("attachments").is_some() {
                m.files = files.iter().map(|(n, _)| n.clone()).collect();
            }
            m.changed = seq;
        }
        self.refresh_object(id);
    }

    /// Rebuilds the Message object the fake answers with (and puts in clicks).
    fn refresh_object(&self, id: u64) {
        let bot = self.bot_object();
        let mut st = self.state.lock().unwrap();
        let Some(m) = st.messages.get_mut(&id) else {
            return;
        };
        let rows = m.rows.clone();
        m.object = json!({
            "id": m.id.to_string(),
            "channel_id": m.channel.to_string(),
            "author": bot,
            "content": m.content,
            "timestamp": "2024-01-01T00:00:00.000000+00:00",
            "edited_timestamp": null,
            "tts": false,
            "mention_everyone": false,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": m.pinned,
            "type": 0,
            "flags": if m.ephemeral { 64 } else { 0 },
            "components": rows,
        });
    }
}

/// The answer to an edit or deletion of `@original` while [`Fake::fail_original_changes`] is on.
fn refused_change() -> (u16, Option<Value>) {
    (
        400,
        Some(json!({"code": 50035, "message": "Invalid Form Body (injected by the test)"})),
    )
}

fn buttons_of(body: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for row in body["components"].as_array().into_iter().flatten() {
        for b in row["components"].as_array().into_iter().flatten() {
            if b["type"] == 3 {
                // A select menu: each option is something to pick.
                for o in b["options"].as_array().into_iter().flatten() {
                    out.push((
                        o["value"].as_str().unwrap_or("").to_string(),
                        o["label"].as_str().unwrap_or("").to_string(),
                    ));
                }
                continue;
            }
            out.push((
                b["custom_id"].as_str().unwrap_or("").to_string(),
                b["label"].as_str().unwrap_or("").to_string(),
            ));
        }
    }
    out
}

/// The most options the select menu offering `value` lets a user pick at once.
pub fn menu_max_values(rows: &Value, value: &str) -> u64 {
    rows.as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().into_iter().flatten())
        .find(|c| {
            c["type"] == 3
                && c["options"]
                    .as_array()
                    .is_some_and(|o| o.iter().any(|o| o["value"] == value))
        })
        .and_then(|c| c["max_values"].as_u64())
        .unwrap_or(1)
}

/// The select menu of `rows` that offers `value`: (menu custom id).
fn menu_offering(rows: &Value, value: &str) -> Option<String> {
    rows.as_array()?
        .iter()
        .flat_map(|row| row["components"].as_array().into_iter().flatten())
        .find(|c| {
            c["type"] == 3
                && c["options"]
                    .as_array()
                    .is_some_and(|o| o.iter().any(|o| o["value"] == value))
        })
        .and_then(|c| c["custom_id"].as_str().map(str::to_string))
}

/// The JSON of a body (`payload_json` of a multipart one) and its files.
fn parse_body(content_type: &str, body: &[u8]) -> (Value, Vec<(String, Vec<u8>)>) {
    if let Some(boundary) = content_type
        .split(';')
        .find_map(|p| p.trim().strip_prefix("boundary="))
    {
        let boundary = boundary.trim_matches('"');
        let delimiter = format!("--{boundary}");
        let mut json = Value::Null;
        let mut files = Vec::new();
        for part in split_bytes(body, delimiter.as_bytes()) {
            let Some(head_end) = find(part, b"\r\n\r\n") else {
                continue;
            };
            let head = String::from_utf8_lossy(&part[..head_end]).to_string();
            let mut data = &part[head_end + 4..];
            if data.ends_with(b"\r\n") {
                data = &data[..data.len() - 2];
            }
            let name = attr(&head, "name").unwrap_or_default();
            if name == "payload_json" {
                json = serde_json::from_slice(data).unwrap_or(Value::Null);
            } else if let Some(file) = attr(&head, "filename") {
                files.push((file, data.to_vec()));
            }
        }
        return (json, files);
    }
    (
        serde_json::from_slice(body).unwrap_or(Value::Null),
        Vec::new(),
    )
}

fn attr(head: &str, key: &str) -> Option<String> {
    let pat = format!("{key}=\"");
    let start = head.find(&pat)? + pat.len();
    let end = head[start..].find('"')? + start;
    Some(head[start..end].to_string())
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn split_bytes<'a>(hay: &'a [u8], delim: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut rest = hay;
    while let Some(i) = find(rest, delim) {
        if i > 0 {
            out.push(&rest[..i]);
        }
        rest = &rest[i + delim.len()..];
    }
    out
}
