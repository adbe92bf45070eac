// Shared constant functions (included inside modules).
// rho rotation offsets r[x][y] of FIPS 202 (Table 2).
function integer rho_off;
    input integer x;
    input integer y;
    begin
        case (5*y + x)
            0:  rho_off = 0;   1:  rho_off = 1;   2:  rho_off = 62;  3:  rho_off = 28;  4:  rho_off = 27;
            5:  rho_off = 36;  6:  rho_off = 44;  7:  rho_off = 6;   8:  rho_off = 55;  9:  rho_off = 20;
            10: rho_off = 3;   11: rho_off = 10;  12: rho_off = 43;  13: rho_off = 25;  14: rho_off = 39;
            15: rho_off = 41;  16: rho_off = 45;  17: rho_off = 15;  18: rho_off = 21;  19: rho_off = 8;
            20: rho_off = 18;  21: rho_off = 2;   22: rho_off = 61;  23: rho_off = 56;  24: rho_off = 14;
            default: rho_off = 0;
        endcase
    end
endfunction
