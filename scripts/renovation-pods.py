#!/usr/bin/env python3
"""Usage: renovation-pods.py COUNT SEED. The recorded request list of docs/renovation.md section 3: N pod manifests from a fixed seed (1-2 GPUs, memory in MiB or percent, cores)."""
import json, random, sys
rng = random.Random(int(sys.argv[2]))
for i in range(int(sys.argv[1])):
    limits = {'nvidia.com/gpu': str(rng.choice([1, 1, 1, 2, 2, 4]))}
    r = rng.random()
    if r < 0.6:
        limits['nvidia.com/gpumem'] = str(rng.choice([1024, 2048, 4096, 8192, 12000, 16384, 24000, 40000]))
    elif r < 0.8:
        limits['nvidia.com/gpumem-percentage'] = str(rng.choice([10, 25, 50, 100]))
    if rng.random() < 0.5:
        limits['nvidia.com/gpucores'] = str(rng.choice([10, 20, 30, 50, 100]))
    ns = rng.choice(['team-a', 'team-b'])
    print(json.dumps({'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': 'p-%03d' % i, 'namespace': ns},
                      'spec': {'containers': [{'name': 'main', 'image': 'busybox',
                                               'resources': {'limits': limits}}]}}))
