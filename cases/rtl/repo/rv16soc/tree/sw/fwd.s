; forwarding corner cases: stores and branches in write-back, writes to r0, load data into a store
    ldi  r1, 9
    ldi  r2, 4
    sw   r1, 0(r2)
    add  r3, r1, r1
    add  r0, r1, r2
    add  r4, r0, r3
    beq  r4, r3, ok
    ldi  r5, 99
ok:
    lw   r5, 0(r2)
    sw   r5, 1(r2)
    lw   r6, 1(r2)
    add  r6, r6, r4
    lui  r7, 0x100
    sw   r6, 0(r7)
    halt
