// GET, POST /api/auth/{action} – next-auth: console sign-in, sign-out, session and CSRF token
import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { getAuthOptions } from "@/server/auth/auth-options";

type TContext = { params: Promise<{ nextauth: string[] }> };

function handle(req: NextRequest, context: TContext): Promise<Response> {
  return NextAuth(req, context, getAuthOptions());
}

export { handle as GET, handle as POST };
