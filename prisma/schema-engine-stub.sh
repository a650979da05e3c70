#!/bin/sh
# Stands in for Prisma's schema engine, which cannot be downloaded on machines that only reach npm.
# `prisma generate` never calls it; anything that does (migrate, db push) is not how this project migrates.
echo "Prisma's schema engine is not installed; apply migrations with: npm run db:migrate" >&2
exit 1
