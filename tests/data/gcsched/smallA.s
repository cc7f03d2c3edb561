'./gcwork' +RTS '-N2' '-A256k' '-l' '-olsmallA256.eventlog' '-ssmallA256.s' 
     366,305,824 bytes allocated in the heap
     223,511,352 bytes copied during GC
       6,514,704 bytes maximum residency (19 sample(s))
          59,728 bytes maximum slop
              22 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0      1351 colls,  1351 par    0.070s   0.113s     0.0001s    0.0046s
  Gen  1        19 colls,    18 par    0.050s   0.222s     0.0117s    0.1238s

  Parallel GC work balance: 67.38% (serial 0%, perfect 100%)

  TASKS: 6 (1 bound, 5 peak workers (5 total), using -N2)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.001s elapsed)
  MUT     time    0.112s  (  0.288s elapsed)
  GC      time    0.119s  (  0.335s elapsed)
  EXIT    time    0.001s  (  0.002s elapsed)
  Total   time    0.233s  (  0.627s elapsed)

  Alloc rate    3,283,506,995 bytes per MUT second

  Productivity  47.9% of total user, 46.0% of total elapsed

