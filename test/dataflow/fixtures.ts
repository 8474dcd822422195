/**
 * Route-handler projects for data flow, one per framework family: each sink and binding the
 * questions ask about is found by a marker comment on its line, so the expected lines come from
 * the source.
 */

/** Flask handlers over sqlite3 and subprocess, with a helper one call deep. */
export const FLASK = `
#- app/db.py
import sqlite3

def get_db():
    return sqlite3.connect("app.db")

def find_user(conn, name):
    sql = "SELECT * FROM users WHERE name = '%s'" % name  # M:find_sql
    return conn.execute(sql).fetchone()  # M:find_exec

def count_rows(conn):
    return conn.execute("SELECT count(*) FROM users").fetchone()  # M:count_exec

def make_stamp(name):
    if not name:
        return "anonymous"
    return "2024-01-01T00:00:00"
#- app/views.py
import subprocess
from flask import Flask, request, jsonify
from .db import get_db, find_user, count_rows, make_stamp

app = Flask(__name__)

@app.route("/users/search", methods=["POST"])
def search_users():
    data = request.get_json()  # M:search_src
    name = data["name"].strip()  # M:search_name
    conn = get_db()  # M:search_conn
    row = find_user(conn, name)  # M:search_call
    total = count_rows(conn)
    return jsonify(row=row, total=total)

@app.route("/ping/<host>")
def ping(host):  # M:ping_param
    count = request.args.get("count", "1")  # M:ping_count
    cmd = ["ping", "-c", count, host]  # M:ping_cmd
    out = subprocess.run(cmd, capture_output=True)  # M:ping_run
    return out.stdout

@app.route("/stats")
def stats():
    conn = get_db()
    n = count_rows(conn)
    limit = 10  # M:stats_limit
    if n > limit:
        limit = n  # M:stats_branch
    rows = conn.execute("SELECT * FROM log LIMIT ?", (limit,))  # M:stats_exec
    return jsonify(rows=list(rows))

@app.route("/notes", methods=["POST"])
def save_note():
    title = request.form["title"]  # M:note_title
    safe = "notes.txt"
    with open(safe, "a") as fh:  # M:note_open
        fh.write(title + "\\n")  # M:note_write
    handler = getattr(fh, request.form["op"])  # M:note_dyn
    return "ok"

@app.route("/audit", methods=["POST"])
def audit():
    who = request.form["who"]  # M:audit_who
    stamp = make_stamp(who)  # M:audit_stamp
    conn = get_db()
    conn.execute("INSERT INTO audit VALUES (?, ?)", (stamp, len(who)))  # M:audit_exec
    conn.execute("INSERT INTO seen VALUES (?)", (stamp,))  # M:audit_seen
    return "ok"
`;

/** FastAPI handlers in the shape of the full-stack template: typed parameters, session dependencies, a crud module. */
export const FASTAPI = `
#- app/crud.py
from sqlmodel import Session, select, text

def get_user_by_email(*, session: Session, email: str):
    statement = select(User).where(User.email == email)  # M:crud_stmt
    return session.exec(statement).first()  # M:crud_exec

def raw_lookup(session: Session, term: str):
    q = text("SELECT id FROM item WHERE title LIKE '%" + term + "%'")  # M:raw_text
    return session.execute(q).all()  # M:raw_exec
#- app/routes.py
from fastapi import APIRouter, Depends
from app import crud
from app.deps import SessionDep, CurrentUser

router = APIRouter(prefix="/users")

@router.get("/by-email/{email}")
def read_by_email(email: str, session: SessionDep, current_user: CurrentUser):  # M:email_param
    user = crud.get_user_by_email(session=session, email=email)  # M:email_call
    return user

@router.get("/search")
def search(session: SessionDep, term: str = "", skip: int = 0):  # M:search_param
    cleaned = term.lower()  # M:search_clean
    found = crud.raw_lookup(session, cleaned)  # M:search_call
    return {"data": found, "skip": skip}

@router.get("/me")
def read_me(session: SessionDep, current_user: CurrentUser):
    owner = current_user.id  # M:me_owner
    rows = session.exec(select(Item).where(Item.owner_id == owner)).all()  # M:me_exec
    return rows
`;

/** Express handlers over a pg pool, child_process and fs, with a helper module. */
export const EXPRESS = `
//- src/db.ts
import { Pool } from "pg";
export const pool = new Pool();

export async function findOrders(customer: string, status: string) {
  const sql = \`SELECT * FROM orders WHERE customer = '\${customer}' AND status = $1\`; // M:orders_sql
  return pool.query(sql, [status]); // M:orders_query
}
//- src/app.ts
import express from "express";
import { exec } from "child_process";
import * as fs from "fs";
import { pool, findOrders } from "./db";

const app = express();

app.get("/orders/:customer", async (req, res) => {
  const customer = req.params.customer; // M:orders_param
  const { status = "open" } = req.query; // M:orders_status
  const result = await findOrders(customer, String(status)); // M:orders_call
  res.json(result.rows);
});

app.post("/backup", (req, res) => {
  const { dir } = req.body; // M:backup_dir
  const target = "/backups/" + dir; // M:backup_target
  exec(\`tar czf \${target}.tgz data\`); // M:backup_exec
  fs.writeFileSync("last-backup.txt", new Date().toISOString()); // M:backup_write
  res.send("started");
});

export async function health(req: express.Request, res: express.Response) {
  const rows = await pool.query("SELECT 1"); // M:health_query
  res.send(\`<p>ok \${rows.rowCount}</p>\`); // M:health_send
}
app.get("/health", health);

app.get("/greet", (req, res) => {
  let name = "guest"; // M:greet_init
  if (req.query.name) {
    name = String(req.query.name); // M:greet_branch
  }
  const html = "<h1>Hello " + name + "</h1>"; // M:greet_html
  res.send(html); // M:greet_send
});
`;

/** Hono handlers on a D1-style database, validated JSON bodies and c.html. */
export const HONO = `
//- src/index.ts
import { Hono } from "hono";

type Env = { Bindings: { DB: D1Database } };
const app = new Hono<Env>();

function buildFilter(tag: string) {
  return "WHERE tag = '" + tag + "'"; // M:filter_ret
}

app.post("/posts", async (c) => {
  const body = await c.req.json(); // M:posts_body
  const title: string = body.title; // M:posts_title
  const stmt = c.env.DB.prepare("INSERT INTO posts (title) VALUES (?)"); // M:posts_prepare
  await stmt.bind(title).run(); // M:posts_run
  return c.json({ ok: true });
});

app.get("/posts/:tag", async (c) => {
  const tag = c.req.param("tag"); // M:tag_param
  const where = buildFilter(tag); // M:tag_where
  const { results } = await c.env.DB.prepare("SELECT * FROM posts " + where).all(); // M:tag_all
  return c.html(\`<ul>\${results.length}</ul>\`); // M:tag_html
});

app.get("/about", (c) => {
  const version = "1.0"; // M:about_version
  return c.html("<p>version " + version + "</p>"); // M:about_html
});

export default app;
`;

/** The 1-based line of the marker `M:<name>` in a fixture. */
export function lineOf(fixture: string, marker: string): { path: string; line: number } {
  let path = "";
  let line = 0;
  for (const text of fixture.replace(/^\n/, "").split("\n")) {
    const head = /^(?:#-|\/\/-) (\S+)/.exec(text);
    if (head) {
      path = head[1]!;
      line = 0;
      continue;
    }
    line++;
    if (new RegExp(`M:${marker}\\b`).test(text)) return { path, line };
  }
  throw new Error(`no marker M:${marker}`);
}
