#!/bin/sh
# Deploys a site whose documents are served from an R2 bucket (docs/deploy.md, "Past the assets
# limit"): a night's changes only, in the order that never serves a half-done night —
#   1. new and changed documents and logos   2. the SI (it may name a new service or logo)
#   3. the worker (wrangler deploy)          4. deletes (the SI no longer names them)
#   5. the record of this upload, _spi-static/uploaded.json in the bucket (never served).
# Each step is retried; if one still fails the script stops before the record is stored, and the
# next run (tomorrow's, or this one again) plans every change since the last complete upload.
#
#   SPI_R2_BUCKET          the bucket's name (required)
#   R2_ACCESS_KEY_ID, R2_SECRET_ACCESS_KEY, CLOUDFLARE_ACCOUNT_ID
#                          with these, rclone over R2's S3 API, many objects at once (for big
#                          nights); without them, wrangler, one object per call
#   R2_ENDPOINT            the S3 endpoint, if not https://<account>.r2.cloudflarestorage.com
#                          (a bucket in a jurisdiction: https://<account>.eu.r2.cloudflarestorage.com)
#   SPI_R2_WHERE           --remote (default), or --local: wrangler dev's local bucket, no deploy
set -eu
bucket="${SPI_R2_BUCKET:?set SPI_R2_BUCKET to the bucket the worker binds as DOCUMENTS}"
where="${SPI_R2_WHERE:---remote}"
record="_spi-static/uploaded.json"
plan=upload
mkdir -p "$plan"

retry() {
  attempt=1
  until "$@"; do
    [ "$attempt" -ge 4 ] && return 1
    sleep $((attempt * 5))
    attempt=$((attempt + 1))
  done
}

if [ -n "${R2_ACCESS_KEY_ID:-}" ]; then
  export RCLONE_CONFIG_R2_TYPE=s3 RCLONE_CONFIG_R2_PROVIDER=Cloudflare
  export RCLONE_CONFIG_R2_ACCESS_KEY_ID="$R2_ACCESS_KEY_ID"
  export RCLONE_CONFIG_R2_SECRET_ACCESS_KEY="${R2_SECRET_ACCESS_KEY:?}"
  export RCLONE_CONFIG_R2_ENDPOINT="${R2_ENDPOINT:-https://${CLOUDFLARE_ACCOUNT_ID:?}.r2.cloudflarestorage.com}"
  get_record() {
    # No record in the bucket (a new one): a first upload. A listing that fails is retried.
    # (rclone copies a missing object as an empty folder, without an error: hence the listing.)
    found=$(rclone lsf "r2:$bucket/$record" --retries 4) || return 1
    [ -n "$found" ] || return 0
    rclone copyto "r2:$bucket/$record" "$plan/bucket.json" --retries 4
  }
  put_list() { rclone copy out "r2:$bucket" --files-from-raw "$1" --no-traverse --transfers 16 --retries 4; }
  delete_list() { rclone delete "r2:$bucket" --files-from-raw "$1" --no-traverse --retries 4; }
  put_record() { rclone copyto "$plan/uploaded.json" "r2:$bucket/$record" --retries 4; }
else
  wrangler() { npx --no -- wrangler "$@"; }
  get_record() {
    # wrangler does not tell a missing object from a failed call: a record that cannot be read
    # means a first upload (every document put again; removed ones stay, never served).
    wrangler r2 object get "$bucket/$record" --file "$plan/bucket.json" "$where" > /dev/null 2>&1 ||
      rm -f "$plan/bucket.json"
  }
  put_one() { retry wrangler r2 object put "$bucket/$1" --file "out/$1" "$where" > /dev/null; }
  delete_one() { retry wrangler r2 object delete "$bucket/$1" "$where" > /dev/null; }
  put_list() { while IFS= read -r path; do put_one "$path"; done < "$1"; }
  delete_list() { while IFS= read -r path; do delete_one "$path"; done < "$1"; }
  put_record() { retry wrangler r2 object put "$bucket/$record" --file "$plan/uploaded.json" "$where" > /dev/null; }
fi

rm -f "$plan/bucket.json"
retry get_record
since=""
[ -f "$plan/bucket.json" ] && since="--since $plan/bucket.json"
# shellcheck disable=SC2086 # $since is two words or none
npx --no -- spi-static upload-list --out out --to "$plan" $since
put_list "$plan/documents.txt"
put_list "$plan/si.txt"
[ "$where" = "--local" ] || retry npx --no -- wrangler deploy
delete_list "$plan/delete.txt"
put_record
echo "spi-static: the bucket $bucket holds tonight's documents"
