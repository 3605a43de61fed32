/** The quickstart's examples, written for the origin the page is served from. */

export function curlExample(origin: string): string {
  return `KEY=mm_live_...   # User Setting → API keys

# 1. Upload a photo: the answer's data.key goes in a generation's inputs
curl -s -H "Authorization: Bearer $KEY" \\
  -F file=@photo.jpg \\
  ${origin}/api/v1/uploads
# → {"data": {"id": "...", "key": "uploads/...", "uploadUrl": null}}

# 2. Start a generation (the same Idempotency-Key again returns it, charged once)
curl -s -H "Authorization: Bearer $KEY" \\
  -H 'Content-Type: application/json' \\
  -H 'Idempotency-Key: sku-1234-white' \\
  -d '{"service": "burstreplace", "inputs": ["uploads/..."], "backgroundId": "white", "modelId": null, "metadata": {"sku": "1234"}}' \\
  ${origin}/api/v1/generations
# → 201 {"data": {"id": "GEN_ID", "status": "queued", "livemode": true, ...}}

# 3. Ask again until data.status is "completed" (or "failed")
curl -s -H "Authorization: Bearer $KEY" ${origin}/api/v1/generations/GEN_ID

# 4. Download each image's result: data.images[0].outputs[0].url (a signed link)
curl -s -o result.jpg "OUTPUT_URL"`
}

export function pythonExample(origin: string): string {
  return `import os, time
import httpx

api = httpx.Client(
    base_url="${origin}",
    headers={"Authorization": f"Bearer {os.environ['METAMODEL_API_KEY']}"},
    timeout=60,
)

with open("photo.jpg", "rb") as photo:
    upload = api.post("/api/v1/uploads", files={"file": ("photo.jpg", photo, "image/jpeg")})
upload.raise_for_status()
key = upload.json()["data"]["key"]

created = api.post(
    "/api/v1/generations",
    headers={"Idempotency-Key": "sku-1234-white"},
    json={
        "service": "burstreplace",
        "inputs": [key],
        "backgroundId": "white",
        "modelId": None,
        "metadata": {"sku": "1234"},
    },
)
created.raise_for_status()
generation = created.json()["data"]

while generation["status"] not in ("completed", "failed"):
    time.sleep(3)
    answer = api.get(f"/api/v1/generations/{generation['id']}")
    answer.raise_for_status()
    generation = answer.json()["data"]

for image in generation["images"]:
    if image["outputs"]:
        output = image["outputs"][0]
        result = httpx.get(output["url"])  # a signed link: no key needed
        with open(image["id"] + os.path.splitext(output["key"])[1], "wb") as out:
            out.write(result.content)
    else:
        print(image["id"], image["error"])`
}

export function cliExample(origin: string): string {
  return `export METAMODEL_API_KEY=mm_live_...
export METAMODEL_API_URL=${origin}

metamodel generate --service burstreplace --background white photos/*.jpg --out results/
metamodel generate --service bodySwap --model MODEL_ID photos/*.jpg --out results/

metamodel models        # ids and names of the digital models
metamodel backgrounds   # ids and names of the backgrounds
metamodel credits       # the key's account's balance`
}

export function webhookCurlExample(origin: string): string {
  return `# Add an endpoint (the answer's data.secret, whsec_..., is shown this once: store it)
curl -s -H "Authorization: Bearer $KEY" \\
  -H 'Content-Type: application/json' \\
  -d '{"url": "https://shop.example.com/hooks/metamodel", "events": ["generation.completed", "generation.failed", "task.completed"], "description": "Catalog sync"}' \\
  ${origin}/api/v1/webhooks
# → 201 {"data": {"id": "...", "status": "enabled", "secret": "whsec_...", ...}}

# The endpoints, and one endpoint's latest deliveries (newest first)
curl -s -H "Authorization: Bearer $KEY" ${origin}/api/v1/webhooks
curl -s -H "Authorization: Bearer $KEY" "${origin}/api/v1/webhooks/ENDPOINT_ID/deliveries?limit=50"`
}

export const webhookBodyExample = `{
  "type": "generation.completed",
  "timestamp": "2026-01-06T10:00:00+00:00",
  "data": {
    "id": "GEN_ID",
    "object": "generation",
    "service": "burstreplace",
    "status": "completed",
    "livemode": true,
    "metadata": {"sku": "1234"},
    "images": [{"id": "IMAGE_ID", "status": "completed", "error": null}],
    "error": null,
    "createdAt": "2026-01-06T09:59:30+00:00",
    "completedAt": "2026-01-06T10:00:00+00:00"
  }
}`

export function webhookPythonExample(origin: string): string {
  return `# pip install standardwebhooks httpx fastapi
import os
import httpx
from fastapi import FastAPI, HTTPException, Request
from standardwebhooks import Webhook

app = FastAPI()
webhook = Webhook(os.environ["METAMODEL_WEBHOOK_SECRET"])  # whsec_...
seen: set[str] = set()  # keep these in your database

@app.post("/hooks/metamodel")
async def metamodel_hook(request: Request):
    body = await request.body()
    try:
        # checks webhook-id, webhook-timestamp and webhook-signature
        event = webhook.verify(body, dict(request.headers))
    except Exception:
        raise HTTPException(status_code=400, detail="bad signature")
    if request.headers["webhook-id"] in seen:  # a retry of one already handled
        return {"ok": True}
    seen.add(request.headers["webhook-id"])
    if event["type"] == "generation.completed":
        generation_id = event["data"]["id"]
        # fresh signed image URLs: the event carries none
        answer = httpx.get(
            f"${origin}/api/v1/generations/{generation_id}",
            headers={"Authorization": f"Bearer {os.environ['METAMODEL_API_KEY']}"},
        )
        ...
    return {"ok": True}  # any 2xx within 10 s counts as delivered`
}

/** Checking a downloaded image's Content Credentials: with the C2PA project's tool, and with ours. */
export function provenanceExample(origin: string): string {
  return `# The C2PA project's command-line tool (github.com/contentauth/c2pa-rs)
c2patool result.jpg

# This service's own check: is it ours, unchanged, and which generation made it?
curl -X POST --data-binary @result.jpg -H 'Content-Type: image/jpeg' \\
  ${origin}/api/v1/provenance
# → {"data": {"verdict": "verified", "message": "This image carries valid Content Credentials from MetaModel, ...",
#             "generationId": "GEN_ID", "taskId": "...", "testMode": false, "credentials": {...}}}`
}
