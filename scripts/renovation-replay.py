#!/usr/bin/env python3
"""Replays one recorded list of pods through a running `simulate --serve` (webhook, filter, bind over HTTP) and
writes what identifies every answer, one JSON line per pod, to stdout (docs/renovation.md section 3).
Usage: renovation-replay.py BANNER_FILE PODS_JSONL. hami.io/bind-time and the node lock are left out here; the doc's
jq step also drops hami.io/vgpu-time, hami.io/bind-phase and hami.io/vgpu-devices-to-allocate (wall-clock, and the
simulated device plugin's timing: it empties to-allocate once a container is allocated)."""
import json, re, sys, urllib.request

banner_file, requests_file = sys.argv[1], sys.argv[2]
banner = open(banner_file).read()
gw = re.search(r'filter\s+POST (\S+)/filter', banner).group(1)
api = re.search(r'API server\s+(\S+)', banner).group(1)
nodes_block = banner.split('  nodes (')[1].split('try it:')[0]
nodes = sorted(set(re.findall(r'[A-Za-z0-9][A-Za-z0-9.-]*', nodes_block.split('\n', 1)[1])))

def call(method, url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={'Content-Type': 'application/json'})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()

STRIP = ('hami.io/bind-time', 'hami.io/mutex.lock')
pods = [json.loads(l) for l in open(requests_file)]
# the scheduler name the gateway answers for: the demo pod's
status, demo = call('GET', api + '/api/v1/namespaces/default/pods/demo')
sched = json.loads(demo)['spec'].get('schedulerName')
for i, manifest in enumerate(pods):
    manifest['spec']['schedulerName'] = sched
    ns = manifest['metadata']['namespace']
    review = {'apiVersion': 'admission.k8s.io/v1', 'kind': 'AdmissionReview', 'request': {
        'uid': 'review-%d' % i, 'kind': {'group': '', 'version': 'v1', 'kind': 'Pod'},
        'resource': {'group': '', 'version': 'v1', 'resource': 'pods'}, 'namespace': ns, 'operation': 'CREATE',
        'object': manifest}}
    ws, wbody = call('POST', gw + '/webhook', review)
    cs, created = call('POST', '%s/api/v1/namespaces/%s/pods' % (api, ns), manifest)
    pod = json.loads(created)
    fs, fbody = call('POST', gw + '/filter', {'Pod': pod, 'NodeNames': nodes})
    row = {'i': i, 'pod': manifest['metadata']['name'], 'webhook': [ws, wbody], 'filter': [fs, fbody]}
    chosen = (json.loads(fbody).get('NodeNames') or [None])[0]
    if chosen:
        bs, bbody = call('POST', gw + '/bind', {'PodName': pod['metadata']['name'], 'PodNamespace': ns,
                                               'PodUID': pod['metadata']['uid'], 'Node': chosen})
        row['bind'] = [bs, bbody]
        _, after = call('GET', '%s/api/v1/namespaces/%s/pods/%s' % (api, ns, pod['metadata']['name']))
        after = json.loads(after)
        row['node'] = after['spec'].get('nodeName')
        row['annotations'] = {k: v for k, v in sorted((after['metadata'].get('annotations') or {}).items())
                              if k.startswith('hami.io/') and k not in STRIP}
    print(json.dumps(row, sort_keys=True), flush=True)
